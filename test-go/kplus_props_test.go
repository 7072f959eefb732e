// Every prop that takes a cdk8s-plus value, given from Go, read back from what the chart synthesizes
// (compared as JSON): a value lost on the way (an empty envFrom entry, limits without their
// quantities) fails the test. (This file sorts before smoke_test.go, whose last test ends the
// JavaScript runtime.)
package main

import (
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/aws/jsii-runtime-go"
	"github.com/cdk8s-dynamo/cdk8s-dynamo-go/cdk8sdynamo"
	"github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2"
	"github.com/cdk8s-team/cdk8s-plus-go/cdk8splus34/v2"
	"github.com/cdk8s-team/cdk8s-plus-go/cdk8splus34/v2/k8s"
)

// plain turns a value into what encoding/json reads from its JSON (maps, slices, float64, ...).
func plain(t *testing.T, value interface{}) interface{} {
	t.Helper()
	text, err := json.Marshal(value)
	if err != nil {
		t.Fatal(err)
	}
	var out interface{}
	if err := json.Unmarshal(text, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// expectJSON compares a value with JSON written with single quotes.
func expectJSON(t *testing.T, what string, got interface{}, want string) {
	t.Helper()
	var expected interface{}
	if err := json.Unmarshal([]byte(strings.ReplaceAll(want, "'", `"`)), &expected); err != nil {
		t.Fatalf("%s: bad expected JSON: %v", what, err)
	}
	if !reflect.DeepEqual(plain(t, got), expected) {
		gotText, _ := json.Marshal(got)
		wantText, _ := json.Marshal(expected)
		t.Errorf("%s:\n got  %s\n want %s", what, gotText, wantText)
	}
}

// at reads a path of keys and indexes in a plain value (nil when it is not there).
func at(value interface{}, path ...interface{}) interface{} {
	for _, step := range path {
		switch key := step.(type) {
		case string:
			m, ok := value.(map[string]interface{})
			if !ok {
				return nil
			}
			value = m[key]
		case int:
			list, ok := value.([]interface{})
			if !ok || key >= len(list) {
				return nil
			}
			value = list[key]
		}
	}
	return value
}

// byName orders a list of named entries by name: a Go map has no order of its own to keep (the
// runtime happens to pass it sorted by key).
func byName(value interface{}) interface{} {
	list, _ := value.([]interface{})
	sorted := append([]interface{}(nil), list...)
	sort.Slice(sorted, func(i, j int) bool {
		return at(sorted[i], "name").(string) < at(sorted[j], "name").(string)
	})
	return sorted
}

type fixture struct {
	t     *testing.T
	chart cdk8s.Chart
}

func newFixture(t *testing.T) *fixture {
	app := cdk8s.NewApp(nil)
	return &fixture{t: t, chart: cdk8s.NewChart(app, jsii.String("llm"), &cdk8s.ChartProps{Namespace: jsii.String("team-a")})}
}

func (f *fixture) graph(props *cdk8sdynamo.DynamoGraphProps) cdk8sdynamo.DynamoGraph {
	if props == nil {
		props = &cdk8sdynamo.DynamoGraphProps{}
	}
	props.Metadata = &cdk8s.ApiObjectMetadata{Name: jsii.String("g")}
	props.BackendFramework = cdk8sdynamo.BackendFramework_VLLM
	return cdk8sdynamo.NewDynamoGraph(f.chart, jsii.String("Graph"), props)
}

// worker adds a frontend and a worker with the options (the image set) to a graph.
func (f *fixture) worker(graph cdk8sdynamo.DynamoGraph, options *cdk8sdynamo.ComponentOptions) cdk8sdynamo.Component {
	graph.AddFrontend(jsii.String("Frontend"), &cdk8sdynamo.ComponentOptions{Image: jsii.String(image)})
	options.Image = jsii.String(image)
	return graph.AddWorker(jsii.String("VllmWorker"), options)
}

func (f *fixture) docs() []interface{} {
	return plain(f.t, f.chart.ToJson()).([]interface{})
}

func (f *fixture) one(kind string) interface{} {
	f.t.Helper()
	var found []interface{}
	for _, doc := range f.docs() {
		if at(doc, "kind") == kind {
			found = append(found, doc)
		}
	}
	if len(found) != 1 {
		f.t.Fatalf("%d objects of kind %s", len(found), kind)
	}
	return found[0]
}

func (f *fixture) workerSpec() interface{} {
	return at(f.one("DynamoGraphDeployment"), "spec", "components", 1)
}

func mainOf(component interface{}) interface{} {
	return at(component, "podTemplate", "spec", "containers", 0)
}

func TestEnvValuesOfEverySource(t *testing.T) {
	f := newFixture(t)
	secret := cdk8splus34.Secret_FromSecretName(f.chart, jsii.String("Hf"), jsii.String("hf-token"))
	configMap := cdk8splus34.ConfigMap_FromConfigMapName(f.chart, jsii.String("Settings"), jsii.String("settings"))
	f.worker(f.graph(nil), &cdk8sdynamo.ComponentOptions{Env: &map[string]cdk8splus34.EnvValue{
		"PLAIN": cdk8splus34.EnvValue_FromValue(jsii.String("1")),
		"TOKEN": cdk8splus34.EnvValue_FromSecretValue(&cdk8splus34.SecretValue{Secret: secret, Key: jsii.String("token")},
			&cdk8splus34.EnvValueFromSecretOptions{Optional: jsii.Bool(true)}),
		"LEVEL": cdk8splus34.EnvValue_FromConfigMap(configMap, jsii.String("level"), nil),
		"POD":   cdk8splus34.EnvValue_FromFieldRef(cdk8splus34.EnvFieldPaths_POD_NAME, nil),
		"CPUS":  cdk8splus34.EnvValue_FromResource(cdk8splus34.ResourceFieldPaths_CPU_LIMIT, nil),
	}})
	expectJSON(t, "env", byName(at(mainOf(f.workerSpec()), "env")), `[
		{'name':'CPUS','valueFrom':{'resourceFieldRef':{'resource':'limits.cpu'}}},
		{'name':'LEVEL','valueFrom':{'configMapKeyRef':{'name':'settings','key':'level'}}},
		{'name':'PLAIN','value':'1'},
		{'name':'POD','valueFrom':{'fieldRef':{'fieldPath':'metadata.name'}}},
		{'name':'TOKEN','valueFrom':{'secretKeyRef':{'name':'hf-token','key':'token','optional':true}}}]`)
}

func TestEnvValuesOfObjectsMadeInTheChart(t *testing.T) {
	f := newFixture(t)
	secret := cdk8splus34.NewSecret(f.chart, jsii.String("Token"), &cdk8splus34.SecretProps{StringData: &map[string]*string{"token": jsii.String("t")}})
	configMap := cdk8splus34.NewConfigMap(f.chart, jsii.String("Settings"), &cdk8splus34.ConfigMapProps{Data: &map[string]*string{"level": jsii.String("debug")}})
	f.worker(f.graph(nil), &cdk8sdynamo.ComponentOptions{Env: &map[string]cdk8splus34.EnvValue{
		"TOKEN": cdk8splus34.EnvValue_FromSecretValue(&cdk8splus34.SecretValue{Secret: secret, Key: jsii.String("token")}, nil),
		"LEVEL": cdk8splus34.EnvValue_FromConfigMap(configMap, jsii.String("level"), nil),
	}})
	if got := at(f.one("Secret"), "metadata", "name"); got != *secret.Name() {
		t.Errorf("Secret name %v, want %s", got, *secret.Name())
	}
	expectJSON(t, "env", byName(at(mainOf(f.workerSpec()), "env")), `[
		{'name':'LEVEL','valueFrom':{'configMapKeyRef':{'name':'`+*configMap.Name()+`','key':'level'}}},
		{'name':'TOKEN','valueFrom':{'secretKeyRef':{'name':'`+*secret.Name()+`','key':'token'}}}]`)
}

func TestGraphEnvPropAndAddEnv(t *testing.T) {
	f := newFixture(t)
	secret := cdk8splus34.Secret_FromSecretName(f.chart, jsii.String("Hf"), jsii.String("hf-token"))
	graph := f.graph(&cdk8sdynamo.DynamoGraphProps{Env: &map[string]cdk8splus34.EnvValue{"LOG": cdk8splus34.EnvValue_FromValue(jsii.String("debug"))}})
	graph.AddEnv(jsii.String("TOKEN"), cdk8splus34.EnvValue_FromSecretValue(&cdk8splus34.SecretValue{Secret: secret, Key: jsii.String("token")}, nil))
	worker := f.worker(graph, &cdk8sdynamo.ComponentOptions{Env: &map[string]cdk8splus34.EnvValue{"A": cdk8splus34.EnvValue_FromValue(jsii.String("1"))}})
	worker.AddEnv(jsii.String("A"), cdk8splus34.EnvValue_FromValue(jsii.String("2")))
	worker.AddEnv(jsii.String("POD"), cdk8splus34.EnvValue_FromFieldRef(cdk8splus34.EnvFieldPaths_POD_NAMESPACE, nil))
	dgd := f.one("DynamoGraphDeployment")
	expectJSON(t, "graph env", at(dgd, "spec", "env"),
		`[{'name':'LOG','value':'debug'},{'name':'TOKEN','valueFrom':{'secretKeyRef':{'name':'hf-token','key':'token'}}}]`)
	expectJSON(t, "worker env", at(mainOf(at(dgd, "spec", "components", 1)), "env"),
		`[{'name':'A','value':'2'},{'name':'POD','valueFrom':{'fieldRef':{'fieldPath':'metadata.namespace'}}}]`)
}

func TestEnvFromSecretsAndConfigMaps(t *testing.T) {
	f := newFixture(t)
	madeSecret := cdk8splus34.NewSecret(f.chart, jsii.String("Token"), &cdk8splus34.SecretProps{StringData: &map[string]*string{"token": jsii.String("t")}})
	madeConfigMap := cdk8splus34.NewConfigMap(f.chart, jsii.String("Settings"), &cdk8splus34.ConfigMapProps{Data: &map[string]*string{"level": jsii.String("debug")}})
	f.worker(f.graph(nil), &cdk8sdynamo.ComponentOptions{EnvFrom: &[]cdk8splus34.EnvFrom{
		cdk8splus34.Env_FromSecret(cdk8splus34.Secret_FromSecretName(f.chart, jsii.String("Hf"), jsii.String("hf-token-secret"))),
		cdk8splus34.Env_FromConfigMap(cdk8splus34.ConfigMap_FromConfigMapName(f.chart, jsii.String("Cm"), jsii.String("settings")), jsii.String("APP_")),
		cdk8splus34.Env_FromSecret(madeSecret),
		cdk8splus34.Env_FromConfigMap(madeConfigMap, nil),
	}})
	expectJSON(t, "envFrom", at(mainOf(f.workerSpec()), "envFrom"), `[
		{'secretRef':{'name':'hf-token-secret'}},
		{'configMapRef':{'name':'settings'},'prefix':'APP_'},
		{'secretRef':{'name':'`+*madeSecret.Name()+`'}},
		{'configMapRef':{'name':'`+*madeConfigMap.Name()+`'}}]`)
}

func TestEnvFromReachesTheDeploymentInWorkloadsOutput(t *testing.T) {
	f := newFixture(t)
	f.worker(f.graph(&cdk8sdynamo.DynamoGraphProps{Output: cdk8sdynamo.OutputMode_WORKLOADS}), &cdk8sdynamo.ComponentOptions{EnvFrom: &[]cdk8splus34.EnvFrom{
		cdk8splus34.Env_FromSecret(cdk8splus34.Secret_FromSecretName(f.chart, jsii.String("Hf"), jsii.String("hf-token-secret"))),
		cdk8splus34.Env_FromConfigMap(cdk8splus34.ConfigMap_FromConfigMapName(f.chart, jsii.String("Cm"), jsii.String("settings")), jsii.String("APP_")),
	}})
	var main interface{}
	for _, doc := range f.docs() {
		if at(doc, "kind") != "Deployment" || !strings.Contains(at(doc, "metadata", "name").(string), "vllmworker") {
			continue
		}
		for _, container := range at(doc, "spec", "template", "spec", "containers").([]interface{}) {
			if at(container, "name") == "main" {
				main = container
			}
		}
	}
	expectJSON(t, "Deployment envFrom", at(main, "envFrom"),
		`[{'secretRef':{'name':'hf-token-secret'}},{'configMapRef':{'name':'settings'},'prefix':'APP_'}]`)
}

func TestVolumeMountsOfEveryVolumeSource(t *testing.T) {
	f := newFixture(t)
	secret := cdk8splus34.Secret_FromSecretName(f.chart, jsii.String("Hf"), jsii.String("hf-token"))
	configMap := cdk8splus34.ConfigMap_FromConfigMapName(f.chart, jsii.String("Settings"), jsii.String("settings"))
	claim := cdk8splus34.PersistentVolumeClaim_FromClaimName(f.chart, jsii.String("Models"), jsii.String("models"))
	f.worker(f.graph(nil), &cdk8sdynamo.ComponentOptions{VolumeMounts: &[]*cdk8sdynamo.ComponentVolumeMount{
		{Volume: cdk8splus34.Volume_FromSecret(f.chart, jsii.String("SecretVolume"), secret, nil), Path: jsii.String("/secrets"), ReadOnly: jsii.Bool(true)},
		{Volume: cdk8splus34.Volume_FromConfigMap(f.chart, jsii.String("ConfigVolume"), configMap, nil), Path: jsii.String("/etc/app"), SubPath: jsii.String("app")},
		{Volume: cdk8splus34.Volume_FromPersistentVolumeClaim(f.chart, jsii.String("ModelVolume"), claim, nil), Path: jsii.String("/models")},
		{Volume: cdk8splus34.Volume_FromEmptyDir(f.chart, jsii.String("Scratch"), jsii.String("scratch"), &cdk8splus34.EmptyDirVolumeOptions{
			Medium: cdk8splus34.EmptyDirMedium_MEMORY, SizeLimit: cdk8s.Size_Gibibytes(jsii.Number(2)),
		}), Path: jsii.String("/scratch")},
	}})
	spec := f.workerSpec()
	expectJSON(t, "volumeMounts", at(mainOf(spec), "volumeMounts"), `[
		{'name':'secret-hf-token','mountPath':'/secrets','readOnly':true},
		{'name':'configmap-settings','mountPath':'/etc/app','subPath':'app'},
		{'name':'pvc-models','mountPath':'/models'},
		{'name':'scratch','mountPath':'/scratch'}]`)
	expectJSON(t, "volumes", at(spec, "podTemplate", "spec", "volumes"), `[
		{'name':'secret-hf-token','secret':{'secretName':'hf-token'}},
		{'name':'configmap-settings','configMap':{'name':'settings'}},
		{'name':'pvc-models','persistentVolumeClaim':{'claimName':'models','readOnly':false}},
		{'name':'scratch','emptyDir':{'medium':'Memory','sizeLimit':'2048Mi'}}]`)
}

func TestVolumeMountsOfObjectsMadeInTheChart(t *testing.T) {
	f := newFixture(t)
	secret := cdk8splus34.NewSecret(f.chart, jsii.String("Token"), &cdk8splus34.SecretProps{StringData: &map[string]*string{"token": jsii.String("t")}})
	configMap := cdk8splus34.NewConfigMap(f.chart, jsii.String("Settings"), &cdk8splus34.ConfigMapProps{Data: &map[string]*string{"level": jsii.String("debug")}})
	claim := cdk8splus34.NewPersistentVolumeClaim(f.chart, jsii.String("Models"), &cdk8splus34.PersistentVolumeClaimProps{Storage: cdk8s.Size_Gibibytes(jsii.Number(100))})
	f.worker(f.graph(nil), &cdk8sdynamo.ComponentOptions{VolumeMounts: &[]*cdk8sdynamo.ComponentVolumeMount{
		{Volume: cdk8splus34.Volume_FromSecret(f.chart, jsii.String("SecretVolume"), secret, nil), Path: jsii.String("/secrets")},
		{Volume: cdk8splus34.Volume_FromConfigMap(f.chart, jsii.String("ConfigVolume"), configMap, nil), Path: jsii.String("/etc/app")},
		{Volume: cdk8splus34.Volume_FromPersistentVolumeClaim(f.chart, jsii.String("ModelVolume"), claim,
			&cdk8splus34.PersistentVolumeClaimVolumeOptions{ReadOnly: jsii.Bool(true)}), Path: jsii.String("/models")},
	}})
	if got := at(f.one("PersistentVolumeClaim"), "metadata", "name"); got != *claim.Name() {
		t.Errorf("PersistentVolumeClaim name %v, want %s", got, *claim.Name())
	}
	s, c, p := *secret.Name(), *configMap.Name(), *claim.Name()
	expectJSON(t, "volumes", at(f.workerSpec(), "podTemplate", "spec", "volumes"), `[
		{'name':'secret-`+s+`','secret':{'secretName':'`+s+`'}},
		{'name':'configmap-`+c+`','configMap':{'name':'`+c+`'}},
		{'name':'pvc-`+p+`','persistentVolumeClaim':{'claimName':'`+p+`','readOnly':true}}]`)
}

func TestResourcesWithCpuAndSizes(t *testing.T) {
	f := newFixture(t)
	f.worker(f.graph(nil), &cdk8sdynamo.ComponentOptions{Gpus: jsii.Number(1), Resources: &cdk8splus34.ContainerResources{
		Cpu:              &cdk8splus34.CpuResources{Request: cdk8splus34.Cpu_Millis(jsii.Number(500)), Limit: cdk8splus34.Cpu_Units(jsii.Number(4))},
		Memory:           &cdk8splus34.MemoryResources{Request: cdk8s.Size_Gibibytes(jsii.Number(8)), Limit: cdk8s.Size_Gibibytes(jsii.Number(16))},
		EphemeralStorage: &cdk8splus34.EphemeralStorageResources{Limit: cdk8s.Size_Gibibytes(jsii.Number(50))},
	}})
	expectJSON(t, "resources", at(mainOf(f.workerSpec()), "resources"),
		`{'limits':{'cpu':'4','memory':'16384Mi','ephemeral-storage':'51200Mi','nvidia.com/gpu':'1'},'requests':{'cpu':'500m','memory':'8192Mi'}}`)
}

func podTemplate() *k8s.PodTemplateSpec {
	return &k8s.PodTemplateSpec{
		Metadata: &k8s.ObjectMeta{Labels: &map[string]*string{"team": jsii.String("a")}},
		Spec: &k8s.PodSpec{
			Containers: &[]*k8s.Container{{
				Name: jsii.String("main"),
				Resources: &k8s.ResourceRequirements{
					Limits:   &map[string]k8s.Quantity{"nvidia.com/gpu": k8s.Quantity_FromString(jsii.String("2")), "memory": k8s.Quantity_FromString(jsii.String("40Gi"))},
					Requests: &map[string]k8s.Quantity{"cpu": k8s.Quantity_FromNumber(jsii.Number(8))},
				},
				Ports: &[]*k8s.ContainerPort{{ContainerPort: jsii.Number(9090), Name: jsii.String("metrics"), Protocol: jsii.String("TCP")}},
				ReadinessProbe: &k8s.Probe{
					HttpGet:       &k8s.HttpGetAction{Path: jsii.String("/health"), Port: k8s.IntOrString_FromNumber(jsii.Number(9090))},
					PeriodSeconds: jsii.Number(10),
				},
				LivenessProbe: &k8s.Probe{
					TcpSocket:        &k8s.TcpSocketAction{Port: k8s.IntOrString_FromString(jsii.String("metrics"))},
					FailureThreshold: jsii.Number(3),
				},
			}},
			Tolerations:  &[]*k8s.Toleration{{Key: jsii.String("nvidia.com/gpu"), Operator: jsii.String("Exists"), Effect: jsii.String("NoSchedule")}},
			NodeSelector: &map[string]*string{"gpu": jsii.String("h100")},
		},
	}
}

const podTemplateMain = `'name':'main',
	'resources':{'limits':{'nvidia.com/gpu':'2','memory':'40Gi'},'requests':{'cpu':8}},
	'ports':[{'containerPort':9090,'name':'metrics','protocol':'TCP'}],
	'readinessProbe':{'httpGet':{'path':'/health','port':9090},'periodSeconds':10},
	'livenessProbe':{'tcpSocket':{'port':'metrics'},'failureThreshold':3}`

func TestPodTemplateKeepsQuantitiesPortsAndProbes(t *testing.T) {
	f := newFixture(t)
	f.worker(f.graph(nil), &cdk8sdynamo.ComponentOptions{PodTemplate: podTemplate()})
	template := at(f.workerSpec(), "podTemplate")
	expectJSON(t, "metadata", at(template, "metadata"), `{'labels':{'team':'a'}}`)
	expectJSON(t, "containers", at(template, "spec", "containers"), `[{`+podTemplateMain+`,'image':'`+image+`'}]`)
	expectJSON(t, "tolerations", at(template, "spec", "tolerations"), `[{'key':'nvidia.com/gpu','operator':'Exists','effect':'NoSchedule'}]`)
	expectJSON(t, "nodeSelector", at(template, "spec", "nodeSelector"), `{'gpu':'h100'}`)
}

func TestAddSidecarAndSharedMemorySize(t *testing.T) {
	f := newFixture(t)
	worker := f.worker(f.graph(nil), &cdk8sdynamo.ComponentOptions{SharedMemorySize: k8s.Quantity_FromString(jsii.String("16Gi"))})
	worker.AddSidecar(&k8s.Container{
		Name:           jsii.String("proxy"),
		Image:          jsii.String("envoyproxy/envoy:v1.31.0"),
		Args:           jsii.Strings("--config-path", "/etc/envoy.yaml"),
		Env:            &[]*k8s.EnvVar{{Name: jsii.String("PORT"), Value: jsii.String("8080")}},
		Resources:      &k8s.ResourceRequirements{Limits: &map[string]k8s.Quantity{"cpu": k8s.Quantity_FromString(jsii.String("500m"))}},
		Ports:          &[]*k8s.ContainerPort{{ContainerPort: jsii.Number(8080)}},
		ReadinessProbe: &k8s.Probe{HttpGet: &k8s.HttpGetAction{Port: k8s.IntOrString_FromNumber(jsii.Number(8080))}},
	})
	spec := f.workerSpec()
	expectJSON(t, "sharedMemorySize", at(spec, "sharedMemorySize"), `'16Gi'`)
	expectJSON(t, "sidecar", at(spec, "podTemplate", "spec", "containers", 1), `{'name':'proxy','image':'envoyproxy/envoy:v1.31.0',
		'args':['--config-path','/etc/envoy.yaml'],'env':[{'name':'PORT','value':'8080'}],'resources':{'limits':{'cpu':'500m'}},
		'ports':[{'containerPort':8080}],'readinessProbe':{'httpGet':{'port':8080}}}`)
}

func TestComponentDeploymentTakesTheSameProps(t *testing.T) {
	f := newFixture(t)
	cdk8sdynamo.NewComponentDeployment(f.chart, jsii.String("Worker"), &cdk8sdynamo.ComponentDeploymentProps{
		Metadata:         &cdk8s.ApiObjectMetadata{Name: jsii.String("worker")},
		BackendFramework: cdk8sdynamo.BackendFramework_VLLM,
		Image:            jsii.String(image),
		Env: &map[string]cdk8splus34.EnvValue{"TOKEN": cdk8splus34.EnvValue_FromSecretValue(&cdk8splus34.SecretValue{
			Secret: cdk8splus34.Secret_FromSecretName(f.chart, jsii.String("Hf"), jsii.String("hf")), Key: jsii.String("t")}, nil)},
		EnvFrom: &[]cdk8splus34.EnvFrom{
			cdk8splus34.Env_FromConfigMap(cdk8splus34.ConfigMap_FromConfigMapName(f.chart, jsii.String("Cm"), jsii.String("settings")), jsii.String("APP_")),
		},
		VolumeMounts: &[]*cdk8sdynamo.ComponentVolumeMount{
			{Volume: cdk8splus34.Volume_FromEmptyDir(f.chart, jsii.String("Scratch"), jsii.String("scratch"), nil), Path: jsii.String("/scratch")},
		},
		Resources: &cdk8splus34.ContainerResources{Cpu: &cdk8splus34.CpuResources{Limit: cdk8splus34.Cpu_Units(jsii.Number(2))}},
	})
	dcd := f.one("DynamoComponentDeployment")
	main := at(dcd, "spec", "podTemplate", "spec", "containers", 0)
	expectJSON(t, "env", at(main, "env"), `[{'name':'TOKEN','valueFrom':{'secretKeyRef':{'name':'hf','key':'t'}}}]`)
	expectJSON(t, "envFrom", at(main, "envFrom"), `[{'configMapRef':{'name':'settings'},'prefix':'APP_'}]`)
	expectJSON(t, "volumeMounts", at(main, "volumeMounts"), `[{'name':'scratch','mountPath':'/scratch'}]`)
	expectJSON(t, "resources", at(main, "resources"), `{'limits':{'cpu':'2'}}`)
	expectJSON(t, "volumes", at(dcd, "spec", "podTemplate", "spec", "volumes"), `[{'name':'scratch','emptyDir':{}}]`)
}

// Values of the graph's ToJson(): what the props become before the operator's rules are applied.
func TestEppConfigFromAConfigMapAndExperimentalPodTemplates(t *testing.T) {
	f := newFixture(t)
	graph := f.graph(nil)
	graph.AddEpp(jsii.String("Epp"), &cdk8sdynamo.ComponentOptions{
		Image:     jsii.String("nvcr.io/nvidia/ai-dynamo/epp:1.4.0"),
		EppConfig: cdk8sdynamo.EppConfig_FromConfigMap(cdk8splus34.ConfigMap_FromConfigMapName(f.chart, jsii.String("EppCm"), jsii.String("epp-config")), jsii.String("config.yaml"), nil),
	})
	graph.AddWorker(jsii.String("W"), &cdk8sdynamo.ComponentOptions{
		Image: jsii.String(image),
		Experimental: &cdk8sdynamo.ExperimentalOptions{
			GpuMemoryService: cdk8sdynamo.NewGpuMemoryService(&cdk8sdynamo.GpuMemoryServiceProps{
				ExtraClientPods: &[]*cdk8sdynamo.GmsClientPod{{Name: jsii.String("loader"), PodTemplate: podTemplate()}},
			}),
			Checkpoint: cdk8sdynamo.CheckpointConfig_Automatic(&cdk8sdynamo.CheckpointConfigProps{JobPodTemplate: podTemplate()}),
		},
	})
	components := at(plain(t, graph.ToJson()), "spec", "components")
	expectJSON(t, "eppConfig", at(components, 0, "eppConfig"), `{'configMapRef':{'name':'epp-config','key':'config.yaml'}}`)
	expectJSON(t, "GMS client pod", at(components, 1, "experimental", "gpuMemoryService", "extraClientPods", 0, "podTemplate", "spec", "containers"), `[{`+podTemplateMain+`}]`)
	expectJSON(t, "checkpoint job", at(components, 1, "experimental", "checkpoint", "job", "podTemplate", "spec", "containers"), `[{`+podTemplateMain+`}]`)
}
