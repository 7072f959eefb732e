// Every OperatorOptions prop, set from Java through OperatorOptions.builder(), shows in what is
// rendered. The scenario table test/fixtures/operator-options/cases.json (shared with the TypeScript,
// Python and Go suites) names for each prop a value, a graph and where the value must appear; each case
// is rendered by DynamoGraph.fromYaml in WORKLOADS output and by DynamoDocuments.renderYaml, the value
// is read back from a configuration file by OperatorConfiguration.fromYaml, and invalid values are
// refused naming the prop. The table and the rendered YAML are read with cdk8s's own Yaml.load.
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.cdk8s_dynamo.DynamoDocuments;
import io.github.cdk8s_dynamo.DynamoGraph;
import io.github.cdk8s_dynamo.DynamoGraphProps;
import io.github.cdk8s_dynamo.ImportOptions;
import io.github.cdk8s_dynamo.OperatorConfiguration;
import io.github.cdk8s_dynamo.OperatorOptions;
import io.github.cdk8s_dynamo.OutputMode;
import io.github.cdk8s_dynamo.RegistrySecret;
import io.github.cdk8s_dynamo.RenderYamlOptions;
import io.github.cdk8s_dynamo.ValidateYamlOptions;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.cdk8s.App;
import org.cdk8s.Chart;
import org.cdk8s.Yaml;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

class OperatorOptionsTest {
    static final Path DIR = Path.of(System.getenv("GRAPH_FIXTURE")).getParent().resolveSibling("operator-options");

    @SuppressWarnings("unchecked")
    static Map<String, Object> fixture() {
        return (Map<String, Object>) Yaml.load(DIR.resolve("cases.json").toString()).get(0);
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> listOf(String key) {
        return (List<Map<String, Object>>) fixture().get(key);
    }

    static String graph(String file) {
        try {
            return Files.readString(DIR.resolve(file));
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    static String upperFirst(String prop) {
        return Character.toUpperCase(prop.charAt(0)) + prop.substring(1);
    }

    /** The options with each prop set by the builder method of its name, in the type it takes. */
    @SuppressWarnings("unchecked")
    static OperatorOptions typed(Map<String, Object> props) {
        OperatorOptions.Builder builder = OperatorOptions.builder();
        try {
            for (Map.Entry<String, Object> prop : props.entrySet()) {
                Object value = prop.getValue();
                if (value instanceof String) {
                    OperatorOptions.Builder.class.getMethod(prop.getKey(), String.class).invoke(builder, value);
                } else if (value instanceof Boolean) {
                    OperatorOptions.Builder.class.getMethod(prop.getKey(), Boolean.class).invoke(builder, value);
                } else {
                    List<RegistrySecret> secrets = new ArrayList<>();
                    for (Map<String, Object> secret : (List<Map<String, Object>>) value) {
                        secrets.add(RegistrySecret.builder()
                                .name((String) secret.get("name"))
                                .registries((List<String>) secret.get("registries"))
                                .build());
                    }
                    OperatorOptions.Builder.class.getMethod(prop.getKey(), List.class).invoke(builder, secrets);
                }
            }
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("OperatorOptions.Builder cannot set " + props, e);
        }
        return builder.build();
    }

    @SuppressWarnings("unchecked")
    static OperatorOptions optionsOf(Map<String, Object> c) {
        Map<String, Object> props = new LinkedHashMap<>();
        if (c.get("with") != null) props.putAll((Map<String, Object>) c.get("with"));
        props.put((String) c.get("prop"), c.get("value"));
        return typed(props);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> withOf(Map<String, Object> c) {
        return c.get("with") == null ? Map.of() : (Map<String, Object>) c.get("with");
    }

    static List<Object> objects(String yaml) {
        try {
            Path file = Files.createTempFile("objects-", ".yaml");
            Files.writeString(file, yaml);
            List<Object> out = new ArrayList<>();
            for (Object object : Yaml.load(file.toString())) {
                if (object != null) out.add(plain(object));
            }
            Files.delete(file);
            return out;
        } catch (java.io.IOException e) {
            throw new RuntimeException(e);
        }
    }

    static List<Object> synthesized(String file, OperatorOptions operator) {
        App app = new App();
        Chart chart = new Chart(app, "llm");
        DynamoGraph.fromYaml(chart, "Graph", graph(file),
                ImportOptions.builder().output(OutputMode.WORKLOADS).operator(operator).build());
        return objects(app.synthYaml());
    }

    static List<Object> rendered(String file, OperatorOptions operator) {
        return objects(DynamoDocuments.renderYaml(graph(file),
                RenderYamlOptions.builder().output(OutputMode.WORKLOADS).operator(operator).build()));
    }

    /** JSON data with every number a double and every struct a map (as the fixture compares them). */
    @SuppressWarnings("unchecked")
    static Object plain(Object value) {
        if (value instanceof Number) return ((Number) value).doubleValue();
        if (value instanceof RegistrySecret) {
            RegistrySecret secret = (RegistrySecret) value;
            return Map.of("name", secret.getName(), "registries", new ArrayList<>(secret.getRegistries()));
        }
        if (value instanceof List) {
            List<Object> out = new ArrayList<>();
            for (Object item : (List<Object>) value) out.add(plain(item));
            return out;
        }
        if (value instanceof Map) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<String, Object> e : ((Map<String, Object>) value).entrySet()) out.put(e.getKey(), plain(e.getValue()));
            return out;
        }
        return value;
    }

    /** What the objects show where an expectation looks ("absent" when its object is not rendered). */
    @SuppressWarnings("unchecked")
    static Object seen(List<Object> objects, Map<String, Object> expectation) {
        List<Map<String, Object>> found = new ArrayList<>();
        for (Object o : objects) {
            Map<String, Object> object = (Map<String, Object>) o;
            Object name = ((Map<String, Object>) object.get("metadata")).get("name");
            if (object.get("kind").equals(expectation.get("kind"))
                    && (expectation.get("name") == null || expectation.get("name").equals(name))) {
                found.add(object);
            }
        }
        assertTrue(found.size() <= 1, found.size() + " objects of kind " + expectation.get("kind"));
        if (found.isEmpty()) return "absent";
        if (Boolean.TRUE.equals(expectation.get("absent"))) return "present";
        Object value = found.get(0);
        for (Object step : (List<Object>) expectation.get("path")) {
            if (step instanceof Map) {
                Object entry = null;
                if (value instanceof List) {
                    for (Object item : (List<Object>) value) {
                        if (item instanceof Map && ((Map<String, Object>) step).get("name").equals(((Map<String, Object>) item).get("name"))) entry = item;
                    }
                }
                value = entry;
            } else if (step instanceof Number) {
                int index = ((Number) step).intValue();
                value = value instanceof List && index < ((List<Object>) value).size() ? ((List<Object>) value).get(index) : null;
            } else {
                value = value instanceof Map ? ((Map<String, Object>) value).get(step) : null;
            }
            if (value == null) return null;
        }
        return value;
    }

    static Object wanted(Map<String, Object> expectation) {
        return Boolean.TRUE.equals(expectation.get("absent")) ? "absent" : plain(expectation.get("value"));
    }

    static String title(Map<String, Object> c) {
        return c.get("prop") + "=" + c.get("value");
    }

    /** The JavaScript error's name and message (the jsii runtime appends the JavaScript stack). */
    static String firstLine(RuntimeException error) {
        return error.getMessage().split("\n")[0];
    }

    @Test
    void theTableCoversEveryPropOfOperatorOptions() {
        Set<String> given = new TreeSet<>();
        for (Map<String, Object> c : listOf("cases")) given.add((String) c.get("prop"));
        Set<String> props = new TreeSet<>();
        for (Method method : OperatorOptions.class.getDeclaredMethods()) {
            if (!Modifier.isStatic(method.getModifiers()) && method.getName().startsWith("get")) {
                String name = method.getName().substring(3);
                props.add(Character.toLowerCase(name.charAt(0)) + name.substring(1));
            }
        }
        assertFalse(props.isEmpty());
        assertEquals(props, given);
    }

    @SuppressWarnings("unchecked")
    @TestFactory
    List<DynamicTest> eachValueShowsInWhatIsRendered() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Map<String, Object> c : listOf("cases")) {
            String file = (String) c.get("graph");
            List<Map<String, Object>> expect = (List<Map<String, Object>>) c.get("expect");
            if (expect != null && !expect.isEmpty()) {
                tests.add(DynamicTest.dynamicTest(title(c) + " shows", () -> {
                    List<Object> fromConstruct = synthesized(file, optionsOf(c));
                    List<Object> fromDocuments = rendered(file, optionsOf(c));
                    for (Map<String, Object> expectation : expect) {
                        assertEquals(wanted(expectation), seen(fromConstruct, expectation), "DynamoGraph " + expectation);
                        assertEquals(wanted(expectation), seen(fromDocuments, expectation), "renderYaml " + expectation);
                    }
                }));
            }
            if (c.get("refused") != null) {
                String refused = (String) c.get("refused");
                tests.add(DynamicTest.dynamicTest(title(c) + " is refused", () -> {
                    RuntimeException synth = assertThrows(RuntimeException.class, () -> synthesized(file, optionsOf(c)));
                    assertTrue(synth.getMessage().contains(refused), synth.getMessage());
                    RuntimeException render = assertThrows(RuntimeException.class, () -> rendered(file, optionsOf(c)));
                    assertTrue(render.getMessage().contains(refused), render.getMessage());
                }));
            }
            if (c.get("noEffect") != null) {
                tests.add(DynamicTest.dynamicTest(title(c) + " changes nothing", () -> {
                    List<Object> without = rendered(file, typed(withOf(c)));
                    assertEquals(without, rendered(file, optionsOf(c)));
                    assertEquals(without, synthesized(file, optionsOf(c)));
                }));
            }
            tests.add(DynamicTest.dynamicTest(title(c) + " is read back from a configuration file and Helm values", () -> {
                OperatorOptions options = OperatorConfiguration.fromYaml((String) c.get("config"), "config.yaml");
                Object got = OperatorOptions.class.getMethod("get" + upperFirst((String) c.get("prop"))).invoke(options);
                assertEquals(plain(c.get("value")), plain(got));
                if (c.get("helm") != null) {
                    OperatorOptions fromHelm = OperatorConfiguration.fromHelmValues((String) c.get("helm"));
                    Object derived = OperatorOptions.class.getMethod("get" + upperFirst((String) c.get("prop"))).invoke(fromHelm);
                    assertEquals(plain(c.get("value")), plain(derived), "from Helm values");
                }
            }));
        }
        return tests;
    }

    @TestFactory
    List<DynamicTest> invalidValuesAreRefusedNamingTheProp() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Map<String, Object> invalid : listOf("invalid")) {
            String error = (String) invalid.get("error");
            OperatorOptions operator = optionsOf(invalid);
            tests.add(DynamicTest.dynamicTest(title(invalid), () -> {
                Chart chart = new Chart(new App(), "llm");
                Map<String, Supplier<Object>> calls = new LinkedHashMap<>();
                calls.put("llm/Graph: " + error, () -> new DynamoGraph(chart, "Graph", DynamoGraphProps.builder().operator(operator).build()));
                calls.put("llm/Imported: " + error, () -> DynamoGraph.fromYaml(chart, "Imported", graph("graph.yaml"),
                        ImportOptions.builder().operator(operator).build()));
                calls.put("validateYaml " + error, () -> DynamoDocuments.validateYaml(graph("graph.yaml"),
                        ValidateYamlOptions.builder().operator(operator).build()));
                calls.put("renderYaml " + error, () -> DynamoDocuments.renderYaml(graph("graph.yaml"),
                        RenderYamlOptions.builder().operator(operator).build()));
                for (Map.Entry<String, Supplier<Object>> call : calls.entrySet()) {
                    String want = call.getKey().startsWith("llm/") ? call.getKey() : error;
                    RuntimeException thrown = assertThrows(RuntimeException.class, call.getValue()::get, call.getKey());
                    // a static method's error comes with the JavaScript error's name, a constructor's may not
                    assertEquals(want, firstLine(thrown).replaceFirst("^Error: ", ""), call.getKey());
                }
            }));
        }
        return tests;
    }
}
