// The generated Go module as a Go program uses it: a graph in each output mode, an imported graph,
// DynamoDocuments, errors as panics, and the quick start of docs/languages.md (main.go, copied in from that page).
package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/aws/jsii-runtime-go"
	"github.com/cdk8s-dynamo/cdk8s-dynamo-go/cdk8sdynamo"
	"github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2"
	"github.com/cdk8s-team/cdk8s-plus-go/cdk8splus34/v2"
)

const image = "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0"

const rule43 = `DynamoGraphDeployment/llm: spec.components[1].type (component "decode"): Unsupported value: "router": ` +
	`supported values: "frontend", "worker", "prefill", "decode", "planner", "epp" (rule 43)`

func graphYaml(t *testing.T) string {
	text, err := os.ReadFile(os.Getenv("GRAPH_FIXTURE"))
	if err != nil {
		t.Fatal(err)
	}
	return string(text)
}

// kinds lists the kind of every object of a YAML stream, in order.
func kinds(yaml string) []string {
	var out []string
	for _, line := range strings.Split(yaml, "\n") {
		if strings.HasPrefix(line, "kind: ") {
			out = append(out, strings.TrimPrefix(line, "kind: "))
		}
	}
	return out
}

func contains(list []string, want string) bool {
	for _, item := range list {
		if item == want {
			return true
		}
	}
	return false
}

// panicMessage runs f and returns the message of its panic ("" when it does not panic).
func panicMessage(f func()) (message string) {
	defer func() {
		if r := recover(); r != nil {
			if err, ok := r.(error); ok {
				message = err.Error()
			} else {
				message = r.(string)
			}
		}
	}()
	f()
	return ""
}

func derefs(list []*string) []string {
	out := make([]string, len(list))
	for i, item := range list {
		out[i] = *item
	}
	return out
}

func synth(t *testing.T, output cdk8sdynamo.OutputMode) []string {
	app := cdk8s.NewApp(nil)
	chart := cdk8s.NewChart(app, jsii.String("llm"), &cdk8s.ChartProps{Namespace: jsii.String("team-a")})
	graph := cdk8sdynamo.NewDynamoGraph(chart, jsii.String("Graph"), &cdk8sdynamo.DynamoGraphProps{
		Metadata:         &cdk8s.ApiObjectMetadata{Name: jsii.String("vllm-agg")},
		BackendFramework: cdk8sdynamo.BackendFramework_VLLM,
		Output:           output,
	})
	graph.AddFrontend(jsii.String("Frontend"), &cdk8sdynamo.ComponentOptions{Image: jsii.String(image)})
	worker := graph.AddWorker(jsii.String("VllmWorker"), &cdk8sdynamo.ComponentOptions{
		Image: jsii.String(image),
		Args:  jsii.Strings("--model", "Qwen/Qwen3-0.6B"),
		Env:   &map[string]cdk8splus34.EnvValue{"HF_HOME": cdk8splus34.EnvValue_FromValue(jsii.String("/cache"))},
		Gpus:  jsii.Number(1),
	})
	// `type` is a Go keyword: jsii exports it as Type, which clashes with nothing
	if worker.Type() != cdk8sdynamo.ComponentType_WORKER {
		t.Fatalf("worker.Type() = %v", worker.Type())
	}
	if graph.Output() != output {
		t.Fatalf("graph.Output() = %v", graph.Output())
	}
	return kinds(*app.SynthYaml())
}

func TestGraphOutput(t *testing.T) {
	if got := synth(t, cdk8sdynamo.OutputMode_GRAPH); strings.Join(got, ",") != "DynamoGraphDeployment" {
		t.Fatalf("kinds = %v", got)
	}
}

func TestComponentsOutput(t *testing.T) {
	got := synth(t, cdk8sdynamo.OutputMode_COMPONENTS)
	if strings.Join(got, ",") != "DynamoComponentDeployment,DynamoComponentDeployment" {
		t.Fatalf("kinds = %v", got)
	}
}

func TestWorkloadsOutput(t *testing.T) {
	got := synth(t, cdk8sdynamo.OutputMode_WORKLOADS)
	for _, kind := range []string{"DynamoComponentDeployment", "Deployment", "Service", "ServiceAccount", "Role", "RoleBinding"} {
		if !contains(got, kind) {
			t.Errorf("workloads output has no %s: %v", kind, got)
		}
	}
}

func TestFromYaml(t *testing.T) {
	app := cdk8s.NewApp(nil)
	chart := cdk8s.NewChart(app, jsii.String("imported"), nil)
	cdk8sdynamo.DynamoGraph_FromYaml(chart, jsii.String("Graph"), jsii.String(graphYaml(t)), &cdk8sdynamo.ImportOptions{
		Output: cdk8sdynamo.OutputMode_COMPONENTS,
	})
	out := *app.SynthYaml()
	if !strings.Contains(out, "name: llm-frontend") || len(kinds(out)) != 2 {
		t.Fatalf("synthesized:\n%s", out)
	}
}

func TestDocuments(t *testing.T) {
	good := graphYaml(t)
	bad := strings.Replace(good, "type: decode", "type: router", 1)
	if problems := *cdk8sdynamo.DynamoDocuments_ValidateYaml(jsii.String(good), nil); len(problems) != 0 {
		t.Fatalf("problems of a valid graph: %v", problems)
	}
	problems := *cdk8sdynamo.DynamoDocuments_ValidateYaml(jsii.String(bad), &cdk8sdynamo.ValidateYamlOptions{Source: jsii.String("bad.yaml")})
	if len(problems) != 1 || *problems[0] != "bad.yaml: "+rule43 {
		t.Fatalf("problems = %v", strings.Join(derefs(problems), "\n"))
	}
	rendered := *cdk8sdynamo.DynamoDocuments_RenderYaml(jsii.String(good), &cdk8sdynamo.RenderYamlOptions{
		Output:    cdk8sdynamo.OutputMode_WORKLOADS,
		Namespace: jsii.String("team-a"),
		Operator:  &cdk8sdynamo.OperatorOptions{GroveAvailable: jsii.Bool(true)},
	})
	if !contains(kinds(rendered), "PodCliqueSet") {
		t.Fatalf("no PodCliqueSet for an operator with Grove: %v", kinds(rendered))
	}
	message := panicMessage(func() { cdk8sdynamo.DynamoDocuments_RenderYaml(jsii.String(bad), nil) })
	if !strings.HasSuffix(message, "input: "+rule43) {
		t.Fatalf("render of an invalid graph: panic %q", message)
	}
}

func TestErrorsArePanicsWithTheLibrarysMessage(t *testing.T) {
	app := cdk8s.Testing_App(nil)
	chart := cdk8s.NewChart(app, jsii.String("test"), nil)
	graph := cdk8sdynamo.NewDynamoGraph(chart, jsii.String("Graph"), &cdk8sdynamo.DynamoGraphProps{
		Metadata:         &cdk8s.ApiObjectMetadata{Name: jsii.String("x")},
		BackendFramework: cdk8sdynamo.BackendFramework_VLLM,
	})
	message := panicMessage(func() {
		graph.AddWorker(jsii.String("W"), &cdk8sdynamo.ComponentOptions{Image: jsii.String(image), Gpus: jsii.Number(1.5)})
	})
	if !strings.HasSuffix(message, "test/Graph/W: gpus: Invalid value: 1.5: must be an integer greater than or equal to 0") {
		t.Fatalf("prop error: panic %q", message)
	}
	graph.AddFrontend(jsii.String("F"), &cdk8sdynamo.ComponentOptions{Image: jsii.String("frontend")})
	message = panicMessage(func() {
		graph.AddWorker(jsii.String("F"), &cdk8sdynamo.ComponentOptions{Image: jsii.String(image)})
	})
	if !strings.HasSuffix(message, `test/Graph: component id: Duplicate value: "F": the graph already has a component of this id`) {
		t.Fatalf("duplicate component id: panic %q", message)
	}
	if n := len(*graph.Components()); n != 1 {
		t.Fatalf("components after a refused one: %d", n)
	}
	message = panicMessage(func() { app.Synth() })
	if !strings.Contains(message, `test/Graph: DynamoGraphDeployment/x: spec.components[0].runtimeVersionOverride (component "F"): Required value: `) ||
		!strings.HasSuffix(message, "(rule 47)") {
		t.Fatalf("synth validation error: panic %q", message)
	}
}

// The Go quick start of docs/languages.md (main.go) writes dist/llm.k8s.yaml with the graph vllm-agg, in
// the folder the JavaScript runtime started in (the package's), with what a running graph needs: the
// worker starts a Dynamo engine (the operator gives a default command only to frontends), reads the
// model token's secret and asks for a GPU. Its `defer jsii.Close()` ends that
// runtime: this test comes last.
func TestReadmeQuickStart(t *testing.T) {
	file := filepath.Join("dist", "llm.k8s.yaml")
	if err := os.RemoveAll("dist"); err != nil {
		t.Fatal(err)
	}
	main()
	out, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "name: vllm-agg") || strings.Join(kinds(string(out)), ",") != "DynamoGraphDeployment" {
		t.Fatalf("%s:\n%s", file, out)
	}
	command := regexp.MustCompile(`command:\s*- python3\s*- -m\s*- dynamo\.vllm\s`)
	if !command.Match(out) || !strings.Contains(string(out), "name: hf-token-secret") || !strings.Contains(string(out), `nvidia.com/gpu: "1"`) {
		t.Fatalf("%s: the worker lacks its Dynamo command, the token secret or its GPU:\n%s", file, out)
	}
}
