// The generated Java artifact as a Java program uses it: a graph in each output mode, an imported
// graph, DynamoDocuments, errors as RuntimeExceptions, and the quick start of docs/languages.md (Main.java,
// copied in from that page).
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.cdk8s_dynamo.BackendFramework;
import io.github.cdk8s_dynamo.Component;
import io.github.cdk8s_dynamo.ComponentOptions;
import io.github.cdk8s_dynamo.ComponentType;
import io.github.cdk8s_dynamo.DynamoDocuments;
import io.github.cdk8s_dynamo.DynamoGraph;
import io.github.cdk8s_dynamo.ImportOptions;
import io.github.cdk8s_dynamo.OperatorOptions;
import io.github.cdk8s_dynamo.OutputMode;
import io.github.cdk8s_dynamo.RenderYamlOptions;
import io.github.cdk8s_dynamo.ValidateYamlOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.cdk8s.ApiObjectMetadata;
import org.cdk8s.App;
import org.cdk8s.Chart;
import org.cdk8s.ChartProps;
import org.cdk8s.Testing;
import org.cdk8s.plus34.EnvValue;
import org.junit.jupiter.api.Test;

class SmokeTest {
    static final String IMAGE = "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0";
    static final String RULE_43 = "DynamoGraphDeployment/llm: spec.components[1].type (component \"decode\"): "
            + "Unsupported value: \"router\": supported values: \"frontend\", \"worker\", \"prefill\", \"decode\", \"planner\", \"epp\" (rule 43)";

    static String graphYaml() throws Exception {
        return Files.readString(Path.of(System.getenv("GRAPH_FIXTURE")));
    }

    static List<String> kinds(String yaml) {
        List<String> out = new ArrayList<>();
        for (String line : yaml.split("\n")) {
            if (line.startsWith("kind: ")) out.add(line.substring("kind: ".length()));
        }
        return out;
    }

    /** The JavaScript error's name and message (the jsii runtime appends the JavaScript stack). */
    static String firstLine(RuntimeException error) {
        return error.getMessage().split("\n")[0];
    }

    static List<String> synth(OutputMode output) {
        App app = new App();
        Chart chart = new Chart(app, "llm", ChartProps.builder().namespace("team-a").build());
        DynamoGraph graph = DynamoGraph.Builder.create(chart, "Graph")
                .metadata(ApiObjectMetadata.builder().name("vllm-agg").build())
                .backendFramework(BackendFramework.VLLM)
                .output(output)
                .build();
        graph.addFrontend("Frontend", ComponentOptions.builder().image(IMAGE).build());
        Component worker = graph.addWorker("VllmWorker", ComponentOptions.builder()
                .image(IMAGE)
                .args(List.of("--model", "Qwen/Qwen3-0.6B"))
                .env(Map.of("HF_HOME", EnvValue.fromValue("/cache")))
                .gpus(1)
                .build());
        assertEquals(ComponentType.WORKER, worker.getType());
        assertEquals(output, graph.getOutput());
        return kinds(app.synthYaml());
    }

    @Test
    void graphOutput() {
        assertEquals(List.of("DynamoGraphDeployment"), synth(OutputMode.GRAPH));
    }

    @Test
    void componentsOutput() {
        assertEquals(List.of("DynamoComponentDeployment", "DynamoComponentDeployment"), synth(OutputMode.COMPONENTS));
    }

    @Test
    void workloadsOutput() {
        List<String> kinds = synth(OutputMode.WORKLOADS);
        for (String kind : List.of("DynamoComponentDeployment", "Deployment", "Service", "ServiceAccount", "Role", "RoleBinding")) {
            assertTrue(kinds.contains(kind), "workloads output has no " + kind + ": " + kinds);
        }
    }

    @Test
    void fromYaml() throws Exception {
        App app = new App();
        DynamoGraph.fromYaml(new Chart(app, "imported"), "Graph", graphYaml(),
                ImportOptions.builder().output(OutputMode.COMPONENTS).build());
        String out = app.synthYaml();
        assertTrue(out.contains("name: llm-frontend"), out);
        assertEquals(2, kinds(out).size());
    }

    @Test
    void documents() throws Exception {
        String good = graphYaml();
        String bad = good.replace("type: decode", "type: router");
        assertEquals(List.of(), DynamoDocuments.validateYaml(good));
        assertEquals(List.of("bad.yaml: " + RULE_43),
                DynamoDocuments.validateYaml(bad, ValidateYamlOptions.builder().source("bad.yaml").build()));
        String rendered = DynamoDocuments.renderYaml(good, RenderYamlOptions.builder()
                .output(OutputMode.WORKLOADS)
                .namespace("team-a")
                .operator(OperatorOptions.builder().groveAvailable(true).build())
                .build());
        assertTrue(kinds(rendered).contains("PodCliqueSet"), rendered);
        RuntimeException error = assertThrows(RuntimeException.class, () -> DynamoDocuments.renderYaml(bad));
        assertEquals("Error: input: " + RULE_43, firstLine(error));
    }

    @Test
    void errorsAreRuntimeExceptionsWithTheLibrarysMessage() {
        App app = Testing.app();
        Chart chart = new Chart(app, "test");
        DynamoGraph graph = DynamoGraph.Builder.create(chart, "Graph")
                .metadata(ApiObjectMetadata.builder().name("x").build())
                .backendFramework(BackendFramework.VLLM)
                .build();
        RuntimeException prop = assertThrows(RuntimeException.class,
                () -> graph.addWorker("W", ComponentOptions.builder().image(IMAGE).gpus(1.5).build()));
        assertEquals("Error: test/Graph/W: gpus: Invalid value: 1.5: must be an integer greater than or equal to 0", firstLine(prop));
        graph.addFrontend("F", ComponentOptions.builder().image("frontend").build());
        RuntimeException duplicate = assertThrows(RuntimeException.class,
                () -> graph.addWorker("F", ComponentOptions.builder().image(IMAGE).build()));
        assertEquals("Error: test/Graph: component id: Duplicate value: \"F\": the graph already has a component of this id", firstLine(duplicate));
        assertEquals(1, graph.getComponents().size());
        RuntimeException synth = assertThrows(RuntimeException.class, app::synth);
        assertTrue(synth.getMessage().contains("test/Graph: DynamoGraphDeployment/x: spec.components[0].runtimeVersionOverride (component \"F\"): Required value: "), synth.getMessage());
        assertTrue(synth.getMessage().contains("(rule 47)"), synth.getMessage());
    }

    /**
     * The Java quick start of docs/languages.md (Main.java) writes dist/llm.k8s.yaml, relative to the project
     * folder, with what a running graph needs: the worker starts a Dynamo engine (the operator gives a default
     * command only to frontends), reads the model token's secret and asks for a GPU.
     */
    @Test
    void readmeQuickStart() throws Exception {
        Path out = Path.of("dist", "llm.k8s.yaml");
        Files.deleteIfExists(out);
        Main.main(new String[0]);
        String text = Files.readString(out);
        assertTrue(text.contains("name: vllm-agg"), text);
        assertEquals(List.of("DynamoGraphDeployment"), kinds(text));
        assertTrue(text.matches("(?s).*command:\\s*- python3\\s*- -m\\s*- dynamo\\.vllm\\s.*"), text);
        assertTrue(text.contains("name: hf-token-secret"), text);
        assertTrue(text.contains("nvidia.com/gpu: \"1\""), text);
    }
}
