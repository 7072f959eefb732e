// Every prop that takes a cdk8s-plus value, given from Java, read back from what the chart synthesizes
// (compared as JSON with Jackson, which the jsii runtime brings): a value lost on the way (an empty
// envFrom entry, limits without their quantities) fails the test.
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.cdk8s_dynamo.BackendFramework;
import io.github.cdk8s_dynamo.CheckpointConfig;
import io.github.cdk8s_dynamo.CheckpointConfigProps;
import io.github.cdk8s_dynamo.Component;
import io.github.cdk8s_dynamo.ComponentDeployment;
import io.github.cdk8s_dynamo.ComponentOptions;
import io.github.cdk8s_dynamo.ComponentVolumeMount;
import io.github.cdk8s_dynamo.DynamoGraph;
import io.github.cdk8s_dynamo.EppConfig;
import io.github.cdk8s_dynamo.ExperimentalOptions;
import io.github.cdk8s_dynamo.GmsClientPod;
import io.github.cdk8s_dynamo.GpuMemoryService;
import io.github.cdk8s_dynamo.GpuMemoryServiceProps;
import io.github.cdk8s_dynamo.OutputMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.cdk8s.ApiObjectMetadata;
import org.cdk8s.App;
import org.cdk8s.Chart;
import org.cdk8s.ChartProps;
import org.cdk8s.Size;
import org.cdk8s.plus34.ConfigMap;
import org.cdk8s.plus34.IConfigMap;
import org.cdk8s.plus34.IPersistentVolumeClaim;
import org.cdk8s.plus34.ISecret;
import org.cdk8s.plus34.ConfigMapProps;
import org.cdk8s.plus34.ContainerResources;
import org.cdk8s.plus34.Cpu;
import org.cdk8s.plus34.CpuResources;
import org.cdk8s.plus34.EmptyDirMedium;
import org.cdk8s.plus34.EmptyDirVolumeOptions;
import org.cdk8s.plus34.Env;
import org.cdk8s.plus34.EnvFieldPaths;
import org.cdk8s.plus34.EnvValue;
import org.cdk8s.plus34.EnvValueFromSecretOptions;
import org.cdk8s.plus34.EphemeralStorageResources;
import org.cdk8s.plus34.MemoryResources;
import org.cdk8s.plus34.PersistentVolumeClaim;
import org.cdk8s.plus34.PersistentVolumeClaimProps;
import org.cdk8s.plus34.PersistentVolumeClaimVolumeOptions;
import org.cdk8s.plus34.ResourceFieldPaths;
import org.cdk8s.plus34.Secret;
import org.cdk8s.plus34.SecretProps;
import org.cdk8s.plus34.SecretValue;
import org.cdk8s.plus34.Volume;
import org.cdk8s.plus34.k8s.Container;
import org.cdk8s.plus34.k8s.ContainerPort;
import org.cdk8s.plus34.k8s.EnvVar;
import org.cdk8s.plus34.k8s.HttpGetAction;
import org.cdk8s.plus34.k8s.IntOrString;
import org.cdk8s.plus34.k8s.ObjectMeta;
import org.cdk8s.plus34.k8s.PodSpec;
import org.cdk8s.plus34.k8s.PodTemplateSpec;
import org.cdk8s.plus34.k8s.Probe;
import org.cdk8s.plus34.k8s.Quantity;
import org.cdk8s.plus34.k8s.ResourceRequirements;
import org.cdk8s.plus34.k8s.TcpSocketAction;
import org.cdk8s.plus34.k8s.Toleration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class KplusPropsTest {
    static final String IMAGE = "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0";
    static final ObjectMapper MAPPER = new ObjectMapper();

    App app;
    Chart chart;

    @BeforeEach
    void newChart() {
        app = new App();
        chart = new Chart(app, "llm", ChartProps.builder().namespace("team-a").build());
    }

    /** A value as JSON, read the same way whether it came from the library or from text. */
    static JsonNode json(Object value) {
        try {
            return MAPPER.readTree(value instanceof String ? (String) value : MAPPER.writeValueAsString(value));
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    /** Expected JSON written with single quotes (readable in a Java string). */
    static JsonNode expected(String text) {
        return json(text.replace('\'', '"'));
    }

    DynamoGraph graph(Map<String, EnvValue> env, OutputMode output) {
        DynamoGraph.Builder builder = DynamoGraph.Builder.create(chart, "Graph")
                .metadata(ApiObjectMetadata.builder().name("g").build())
                .backendFramework(BackendFramework.VLLM)
                .output(output);
        if (env != null) builder.env(env);
        return builder.build();
    }

    DynamoGraph graph() {
        return graph(null, OutputMode.GRAPH);
    }

    /** A frontend and a worker with the given options (the image set). */
    Component worker(DynamoGraph graph, ComponentOptions.Builder options) {
        graph.addFrontend("Frontend", ComponentOptions.builder().image(IMAGE).build());
        return graph.addWorker("VllmWorker", options.image(IMAGE).build());
    }

    List<JsonNode> docs() {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode doc : json(chart.toJson())) out.add(doc);
        return out;
    }

    JsonNode one(String kind) {
        List<JsonNode> found = new ArrayList<>();
        for (JsonNode doc : docs()) if (doc.get("kind").asText().equals(kind)) found.add(doc);
        assertEquals(1, found.size(), kind + " in " + docs());
        return found.get(0);
    }

    JsonNode workerSpec() {
        return one("DynamoGraphDeployment").at("/spec/components/1");
    }

    static JsonNode main(JsonNode component) {
        JsonNode main = component.at("/podTemplate/spec/containers/0");
        assertEquals("main", main.get("name").asText());
        return main;
    }

    static <K, V> Map<K, V> ordered(Object... entries) {
        Map<K, V> map = new LinkedHashMap<>();
        for (int i = 0; i < entries.length; i += 2) {
            @SuppressWarnings("unchecked") K key = (K) entries[i];
            @SuppressWarnings("unchecked") V value = (V) entries[i + 1];
            map.put(key, value);
        }
        return map;
    }

    @Test
    void envValuesOfEverySource() {
        ISecret secret = Secret.fromSecretName(chart, "Hf", "hf-token");
        IConfigMap configMap = ConfigMap.fromConfigMapName(chart, "Settings", "settings");
        worker(graph(), ComponentOptions.builder().env(ordered(
                "PLAIN", EnvValue.fromValue("1"),
                "TOKEN", EnvValue.fromSecretValue(SecretValue.builder().secret(secret).key("token").build(),
                        EnvValueFromSecretOptions.builder().optional(true).build()),
                "LEVEL", EnvValue.fromConfigMap(configMap, "level"),
                "POD", EnvValue.fromFieldRef(EnvFieldPaths.POD_NAME),
                "CPUS", EnvValue.fromResource(ResourceFieldPaths.CPU_LIMIT))));
        assertEquals(expected("["
                + "{'name':'PLAIN','value':'1'},"
                + "{'name':'TOKEN','valueFrom':{'secretKeyRef':{'name':'hf-token','key':'token','optional':true}}},"
                + "{'name':'LEVEL','valueFrom':{'configMapKeyRef':{'name':'settings','key':'level'}}},"
                + "{'name':'POD','valueFrom':{'fieldRef':{'fieldPath':'metadata.name'}}},"
                + "{'name':'CPUS','valueFrom':{'resourceFieldRef':{'resource':'limits.cpu'}}}]"),
                main(workerSpec()).get("env"));
    }

    @Test
    void envValuesOfObjectsMadeInTheChart() {
        Secret secret = new Secret(chart, "Token", SecretProps.builder().stringData(Map.of("token", "t")).build());
        ConfigMap configMap = new ConfigMap(chart, "Settings", ConfigMapProps.builder().data(Map.of("level", "debug")).build());
        worker(graph(), ComponentOptions.builder().env(ordered(
                "TOKEN", EnvValue.fromSecretValue(SecretValue.builder().secret(secret).key("token").build()),
                "LEVEL", EnvValue.fromConfigMap(configMap, "level"))));
        assertEquals(secret.getName(), one("Secret").at("/metadata/name").asText());
        assertEquals(expected("["
                + "{'name':'TOKEN','valueFrom':{'secretKeyRef':{'name':'" + secret.getName() + "','key':'token'}}},"
                + "{'name':'LEVEL','valueFrom':{'configMapKeyRef':{'name':'" + configMap.getName() + "','key':'level'}}}]"),
                main(workerSpec()).get("env"));
    }

    @Test
    void graphEnvPropAndAddEnv() {
        ISecret secret = Secret.fromSecretName(chart, "Hf", "hf-token");
        DynamoGraph graph = graph(Map.of("LOG", EnvValue.fromValue("debug")), OutputMode.GRAPH);
        graph.addEnv("TOKEN", EnvValue.fromSecretValue(SecretValue.builder().secret(secret).key("token").build()));
        Component worker = worker(graph, ComponentOptions.builder().env(Map.of("A", EnvValue.fromValue("1"))));
        worker.addEnv("A", EnvValue.fromValue("2"));
        worker.addEnv("POD", EnvValue.fromFieldRef(EnvFieldPaths.POD_NAMESPACE));
        JsonNode dgd = one("DynamoGraphDeployment");
        assertEquals(expected("[{'name':'LOG','value':'debug'},"
                + "{'name':'TOKEN','valueFrom':{'secretKeyRef':{'name':'hf-token','key':'token'}}}]"), dgd.at("/spec/env"));
        assertEquals(expected("[{'name':'A','value':'2'},{'name':'POD','valueFrom':{'fieldRef':{'fieldPath':'metadata.namespace'}}}]"),
                main(dgd.at("/spec/components/1")).get("env"));
    }

    @Test
    void envFromSecretsAndConfigMaps() {
        Secret madeSecret = new Secret(chart, "Token", SecretProps.builder().stringData(Map.of("token", "t")).build());
        ConfigMap madeConfigMap = new ConfigMap(chart, "Settings", ConfigMapProps.builder().data(Map.of("level", "debug")).build());
        worker(graph(), ComponentOptions.builder().envFrom(List.of(
                Env.fromSecret(Secret.fromSecretName(chart, "Hf", "hf-token-secret")),
                Env.fromConfigMap(ConfigMap.fromConfigMapName(chart, "Cm", "settings"), "APP_"),
                Env.fromSecret(madeSecret),
                Env.fromConfigMap(madeConfigMap))));
        assertEquals(expected("[{'secretRef':{'name':'hf-token-secret'}},"
                + "{'configMapRef':{'name':'settings'},'prefix':'APP_'},"
                + "{'secretRef':{'name':'" + madeSecret.getName() + "'}},"
                + "{'configMapRef':{'name':'" + madeConfigMap.getName() + "'}}]"),
                main(workerSpec()).get("envFrom"));
    }

    @Test
    void envFromReachesTheDeploymentInWorkloadsOutput() {
        worker(graph(null, OutputMode.WORKLOADS), ComponentOptions.builder().envFrom(List.of(
                Env.fromSecret(Secret.fromSecretName(chart, "Hf", "hf-token-secret")),
                Env.fromConfigMap(ConfigMap.fromConfigMapName(chart, "Cm", "settings"), "APP_"))));
        JsonNode worker = null;
        for (JsonNode doc : docs()) {
            if (doc.get("kind").asText().equals("Deployment") && doc.at("/metadata/name").asText().contains("vllmworker")) worker = doc;
        }
        JsonNode main = null;
        for (JsonNode container : worker.at("/spec/template/spec/containers")) {
            if (container.get("name").asText().equals("main")) main = container;
        }
        assertEquals(expected("[{'secretRef':{'name':'hf-token-secret'}},{'configMapRef':{'name':'settings'},'prefix':'APP_'}]"),
                main.get("envFrom"));
    }

    @Test
    void volumeMountsOfEveryVolumeSource() {
        ISecret secret = Secret.fromSecretName(chart, "Hf", "hf-token");
        IConfigMap configMap = ConfigMap.fromConfigMapName(chart, "Settings", "settings");
        IPersistentVolumeClaim claim = PersistentVolumeClaim.fromClaimName(chart, "Models", "models");
        worker(graph(), ComponentOptions.builder().volumeMounts(List.of(
                ComponentVolumeMount.builder().volume(Volume.fromSecret(chart, "SecretVolume", secret)).path("/secrets").readOnly(true).build(),
                ComponentVolumeMount.builder().volume(Volume.fromConfigMap(chart, "ConfigVolume", configMap)).path("/etc/app").subPath("app").build(),
                ComponentVolumeMount.builder().volume(Volume.fromPersistentVolumeClaim(chart, "ModelVolume", claim)).path("/models").build(),
                ComponentVolumeMount.builder().volume(Volume.fromEmptyDir(chart, "Scratch", "scratch",
                        EmptyDirVolumeOptions.builder().medium(EmptyDirMedium.MEMORY).sizeLimit(Size.gibibytes(2)).build())).path("/scratch").build())));
        JsonNode spec = workerSpec();
        assertEquals(expected("[{'name':'secret-hf-token','mountPath':'/secrets','readOnly':true},"
                + "{'name':'configmap-settings','mountPath':'/etc/app','subPath':'app'},"
                + "{'name':'pvc-models','mountPath':'/models'},"
                + "{'name':'scratch','mountPath':'/scratch'}]"), main(spec).get("volumeMounts"));
        assertEquals(expected("[{'name':'secret-hf-token','secret':{'secretName':'hf-token'}},"
                + "{'name':'configmap-settings','configMap':{'name':'settings'}},"
                + "{'name':'pvc-models','persistentVolumeClaim':{'claimName':'models','readOnly':false}},"
                + "{'name':'scratch','emptyDir':{'medium':'Memory','sizeLimit':'2048Mi'}}]"), spec.at("/podTemplate/spec/volumes"));
    }

    @Test
    void volumeMountsOfObjectsMadeInTheChart() {
        Secret secret = new Secret(chart, "Token", SecretProps.builder().stringData(Map.of("token", "t")).build());
        ConfigMap configMap = new ConfigMap(chart, "Settings", ConfigMapProps.builder().data(Map.of("level", "debug")).build());
        PersistentVolumeClaim claim = new PersistentVolumeClaim(chart, "Models",
                PersistentVolumeClaimProps.builder().storage(Size.gibibytes(100)).build());
        worker(graph(), ComponentOptions.builder().volumeMounts(List.of(
                ComponentVolumeMount.builder().volume(Volume.fromSecret(chart, "SecretVolume", secret)).path("/secrets").build(),
                ComponentVolumeMount.builder().volume(Volume.fromConfigMap(chart, "ConfigVolume", configMap)).path("/etc/app").build(),
                ComponentVolumeMount.builder().volume(Volume.fromPersistentVolumeClaim(chart, "ModelVolume", claim,
                        PersistentVolumeClaimVolumeOptions.builder().readOnly(true).build())).path("/models").build())));
        assertEquals(claim.getName(), one("PersistentVolumeClaim").at("/metadata/name").asText());
        assertEquals(expected("[{'name':'secret-" + secret.getName() + "','secret':{'secretName':'" + secret.getName() + "'}},"
                + "{'name':'configmap-" + configMap.getName() + "','configMap':{'name':'" + configMap.getName() + "'}},"
                + "{'name':'pvc-" + claim.getName() + "','persistentVolumeClaim':{'claimName':'" + claim.getName() + "','readOnly':true}}]"),
                workerSpec().at("/podTemplate/spec/volumes"));
    }

    @Test
    void resourcesWithCpuAndSizes() {
        worker(graph(), ComponentOptions.builder().gpus(1).resources(ContainerResources.builder()
                .cpu(CpuResources.builder().request(Cpu.millis(500)).limit(Cpu.units(4)).build())
                .memory(MemoryResources.builder().request(Size.gibibytes(8)).limit(Size.gibibytes(16)).build())
                .ephemeralStorage(EphemeralStorageResources.builder().limit(Size.gibibytes(50)).build())
                .build()));
        assertEquals(expected("{'limits':{'cpu':'4','memory':'16384Mi','ephemeral-storage':'51200Mi','nvidia.com/gpu':'1'},"
                + "'requests':{'cpu':'500m','memory':'8192Mi'}}"), main(workerSpec()).get("resources"));
    }

    static PodTemplateSpec podTemplate() {
        return PodTemplateSpec.builder()
                .metadata(ObjectMeta.builder().labels(Map.of("team", "a")).build())
                .spec(PodSpec.builder()
                        .containers(List.of(Container.builder()
                                .name("main")
                                .resources(ResourceRequirements.builder()
                                        .limits(Map.of("nvidia.com/gpu", Quantity.fromString("2"), "memory", Quantity.fromString("40Gi")))
                                        .requests(Map.of("cpu", Quantity.fromNumber(8)))
                                        .build())
                                .ports(List.of(ContainerPort.builder().containerPort(9090).name("metrics").protocol("TCP").build()))
                                .readinessProbe(Probe.builder()
                                        .httpGet(HttpGetAction.builder().path("/health").port(IntOrString.fromNumber(9090)).build())
                                        .periodSeconds(10)
                                        .build())
                                .livenessProbe(Probe.builder()
                                        .tcpSocket(TcpSocketAction.builder().port(IntOrString.fromString("metrics")).build())
                                        .failureThreshold(3)
                                        .build())
                                .build()))
                        .tolerations(List.of(Toleration.builder().key("nvidia.com/gpu").operator("Exists").effect("NoSchedule").build()))
                        .nodeSelector(Map.of("gpu", "h100"))
                        .build())
                .build();
    }

    static final String POD_TEMPLATE_MAIN = "'name':'main',"
            + "'resources':{'limits':{'nvidia.com/gpu':'2','memory':'40Gi'},'requests':{'cpu':8}},"
            + "'ports':[{'containerPort':9090,'name':'metrics','protocol':'TCP'}],"
            + "'readinessProbe':{'httpGet':{'path':'/health','port':9090},'periodSeconds':10},"
            + "'livenessProbe':{'tcpSocket':{'port':'metrics'},'failureThreshold':3}";

    @Test
    void podTemplateKeepsQuantitiesPortsAndProbes() {
        worker(graph(), ComponentOptions.builder().podTemplate(podTemplate()));
        JsonNode template = workerSpec().get("podTemplate");
        assertEquals(expected("{'labels':{'team':'a'}}"), template.get("metadata"));
        assertEquals(expected("[{" + POD_TEMPLATE_MAIN + ",'image':'" + IMAGE + "'}]"), template.at("/spec/containers"));
        assertEquals(expected("[{'key':'nvidia.com/gpu','operator':'Exists','effect':'NoSchedule'}]"), template.at("/spec/tolerations"));
        assertEquals(expected("{'gpu':'h100'}"), template.at("/spec/nodeSelector"));
    }

    @Test
    void addSidecarAndSharedMemorySize() {
        Component worker = worker(graph(), ComponentOptions.builder().sharedMemorySize(Quantity.fromString("16Gi")));
        worker.addSidecar(Container.builder()
                .name("proxy")
                .image("envoyproxy/envoy:v1.31.0")
                .args(List.of("--config-path", "/etc/envoy.yaml"))
                .env(List.of(EnvVar.builder().name("PORT").value("8080").build()))
                .resources(ResourceRequirements.builder().limits(Map.of("cpu", Quantity.fromString("500m"))).build())
                .ports(List.of(ContainerPort.builder().containerPort(8080).build()))
                .readinessProbe(Probe.builder().httpGet(HttpGetAction.builder().port(IntOrString.fromNumber(8080)).build()).build())
                .build());
        JsonNode spec = workerSpec();
        assertEquals("16Gi", spec.get("sharedMemorySize").asText());
        assertEquals(expected("{'name':'proxy','image':'envoyproxy/envoy:v1.31.0','args':['--config-path','/etc/envoy.yaml'],"
                + "'env':[{'name':'PORT','value':'8080'}],'resources':{'limits':{'cpu':'500m'}},"
                + "'ports':[{'containerPort':8080}],'readinessProbe':{'httpGet':{'port':8080}}}"),
                spec.at("/podTemplate/spec/containers/1"));
    }

    @Test
    void componentDeploymentTakesTheSameProps() {
        ComponentDeployment.Builder.create(chart, "Worker")
                .metadata(ApiObjectMetadata.builder().name("worker").build())
                .backendFramework(BackendFramework.VLLM)
                .image(IMAGE)
                .env(Map.of("TOKEN", EnvValue.fromSecretValue(SecretValue.builder()
                        .secret(Secret.fromSecretName(chart, "Hf", "hf")).key("t").build())))
                .envFrom(List.of(Env.fromConfigMap(ConfigMap.fromConfigMapName(chart, "Cm", "settings"), "APP_")))
                .volumeMounts(List.of(ComponentVolumeMount.builder().volume(Volume.fromEmptyDir(chart, "Scratch", "scratch")).path("/scratch").build()))
                .resources(ContainerResources.builder().cpu(CpuResources.builder().limit(Cpu.units(2)).build()).build())
                .build();
        JsonNode dcd = one("DynamoComponentDeployment");
        JsonNode main = dcd.at("/spec/podTemplate/spec/containers/0");
        assertEquals(expected("[{'name':'TOKEN','valueFrom':{'secretKeyRef':{'name':'hf','key':'t'}}}]"), main.get("env"));
        assertEquals(expected("[{'configMapRef':{'name':'settings'},'prefix':'APP_'}]"), main.get("envFrom"));
        assertEquals(expected("[{'name':'scratch','mountPath':'/scratch'}]"), main.get("volumeMounts"));
        assertEquals(expected("{'limits':{'cpu':'2'}}"), main.get("resources"));
        assertEquals(expected("[{'name':'scratch','emptyDir':{}}]"), dcd.at("/spec/podTemplate/spec/volumes"));
    }

    /** Values of the graph's toJson(): what the props become before the operator's rules are applied. */
    @Test
    void eppConfigFromAConfigMapAndExperimentalPodTemplates() {
        DynamoGraph graph = graph();
        graph.addEpp("Epp", ComponentOptions.builder()
                .image("nvcr.io/nvidia/ai-dynamo/epp:1.4.0")
                .eppConfig(EppConfig.fromConfigMap(ConfigMap.fromConfigMapName(chart, "EppCm", "epp-config"), "config.yaml"))
                .build());
        graph.addWorker("W", ComponentOptions.builder()
                .image(IMAGE)
                .experimental(ExperimentalOptions.builder()
                        .gpuMemoryService(new GpuMemoryService(GpuMemoryServiceProps.builder()
                                .extraClientPods(List.of(GmsClientPod.builder().name("loader").podTemplate(podTemplate()).build()))
                                .build()))
                        .checkpoint(CheckpointConfig.automatic(CheckpointConfigProps.builder().jobPodTemplate(podTemplate()).build()))
                        .build())
                .build());
        JsonNode components = json(graph.toJson()).at("/spec/components");
        assertEquals(expected("{'configMapRef':{'name':'epp-config','key':'config.yaml'}}"), components.at("/0/eppConfig"));
        JsonNode containers = expected("[{" + POD_TEMPLATE_MAIN + "}]");
        assertEquals(containers, components.at("/1/experimental/gpuMemoryService/extraClientPods/0/podTemplate/spec/containers"));
        assertEquals(containers, components.at("/1/experimental/checkpoint/job/podTemplate/spec/containers"));
    }
}
