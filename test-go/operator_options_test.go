// Every OperatorOptions prop, set from Go as a field of cdk8sdynamo.OperatorOptions (jsii.String,
// jsii.Bool), shows in what is rendered. The scenario table test/fixtures/operator-options/cases.json
// (shared with the TypeScript, Python and Java suites) names for each prop a value, a graph and where
// the value must appear; each case is rendered by DynamoGraph_FromYaml in WORKLOADS output and by
// DynamoDocuments_RenderYaml, the value is read back from a configuration file by
// OperatorConfiguration_FromYaml, and invalid values are refused naming the prop. (This file sorts
// before smoke_test.go, whose last test ends the JavaScript runtime.)
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode"

	"github.com/aws/jsii-runtime-go"
	"github.com/cdk8s-dynamo/cdk8s-dynamo-go/cdk8sdynamo"
	"github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2"
)

type optionsCase struct {
	Prop     string                   `json:"prop"`
	Value    interface{}              `json:"value"`
	Graph    string                   `json:"graph"`
	With     map[string]interface{}   `json:"with"`
	Config   string                   `json:"config"`
	Helm     string                   `json:"helm"`
	Expect   []map[string]interface{} `json:"expect"`
	Refused  string                   `json:"refused"`
	NoEffect string                   `json:"noEffect"`
}

type invalidOption struct {
	Prop  string                 `json:"prop"`
	Value interface{}            `json:"value"`
	With  map[string]interface{} `json:"with"`
	Error string                 `json:"error"`
}

type optionsFixture struct {
	Cases   []optionsCase   `json:"cases"`
	Invalid []invalidOption `json:"invalid"`
}

// optionsDir is test/fixtures/operator-options, beside the graph fixture of the smoke test.
func optionsDir() string {
	return filepath.Join(filepath.Dir(os.Getenv("GRAPH_FIXTURE")), "..", "operator-options")
}

func readOptionsFixture(t *testing.T) optionsFixture {
	t.Helper()
	text, err := os.ReadFile(filepath.Join(optionsDir(), "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var fixture optionsFixture
	if err := json.Unmarshal(text, &fixture); err != nil {
		t.Fatal(err)
	}
	return fixture
}

func graphFile(t *testing.T, name string) string {
	t.Helper()
	text, err := os.ReadFile(filepath.Join(optionsDir(), name))
	if err != nil {
		t.Fatal(err)
	}
	return string(text)
}

// fieldName is the Go field of a prop (`modelExpressUrl` is `ModelExpressUrl`).
func fieldName(prop string) string {
	runes := []rune(prop)
	runes[0] = unicode.ToUpper(runes[0])
	return string(runes)
}

// typedValue is a fixture value as the typed API takes it: pointers made by jsii.String and
// jsii.Bool, registry secrets as a list of *cdk8sdynamo.RegistrySecret.
func typedValue(t *testing.T, value interface{}) reflect.Value {
	t.Helper()
	switch v := value.(type) {
	case string:
		return reflect.ValueOf(jsii.String(v))
	case bool:
		return reflect.ValueOf(jsii.Bool(v))
	case []interface{}:
		secrets := []*cdk8sdynamo.RegistrySecret{}
		for _, item := range v {
			entry := item.(map[string]interface{})
			registries := []*string{}
			for _, registry := range entry["registries"].([]interface{}) {
				registries = append(registries, jsii.String(registry.(string)))
			}
			secrets = append(secrets, &cdk8sdynamo.RegistrySecret{Name: jsii.String(entry["name"].(string)), Registries: &registries})
		}
		return reflect.ValueOf(&secrets)
	}
	t.Fatalf("no typed form for %#v", value)
	return reflect.Value{}
}

// typedOptions sets each prop on the field of its name.
func typedOptions(t *testing.T, props map[string]interface{}) *cdk8sdynamo.OperatorOptions {
	t.Helper()
	options := &cdk8sdynamo.OperatorOptions{}
	target := reflect.ValueOf(options).Elem()
	for prop, value := range props {
		field := target.FieldByName(fieldName(prop))
		if !field.IsValid() {
			t.Fatalf("OperatorOptions has no field %s", fieldName(prop))
		}
		field.Set(typedValue(t, value))
	}
	return options
}

func (c optionsCase) options(t *testing.T) *cdk8sdynamo.OperatorOptions {
	props := map[string]interface{}{c.Prop: c.Value}
	for prop, value := range c.With {
		props[prop] = value
	}
	return typedOptions(t, props)
}

// yamlObjects reads a YAML stream with cdk8s's own reader (no YAML module needed here).
func yamlObjects(t *testing.T, text string) []interface{} {
	t.Helper()
	file, err := os.CreateTemp(t.TempDir(), "objects-*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := file.WriteString(text); err != nil {
		t.Fatal(err)
	}
	file.Close()
	var objects []interface{}
	for _, object := range plain(t, cdk8s.Yaml_Load(jsii.String(file.Name()))).([]interface{}) {
		if object != nil {
			objects = append(objects, object)
		}
	}
	return objects
}

func synthesizedObjects(t *testing.T, file string, operator *cdk8sdynamo.OperatorOptions) []interface{} {
	app := cdk8s.NewApp(nil)
	chart := cdk8s.NewChart(app, jsii.String("llm"), nil)
	cdk8sdynamo.DynamoGraph_FromYaml(chart, jsii.String("Graph"), jsii.String(graphFile(t, file)),
		&cdk8sdynamo.ImportOptions{Output: cdk8sdynamo.OutputMode_WORKLOADS, Operator: operator})
	return yamlObjects(t, *app.SynthYaml())
}

func renderedObjects(t *testing.T, file string, operator *cdk8sdynamo.OperatorOptions) []interface{} {
	text := cdk8sdynamo.DynamoDocuments_RenderYaml(jsii.String(graphFile(t, file)),
		&cdk8sdynamo.RenderYamlOptions{Output: cdk8sdynamo.OutputMode_WORKLOADS, Operator: operator})
	return yamlObjects(t, *text)
}

// seenAt is what the objects show where an expectation looks ("absent" when its object is not rendered).
func seenAt(t *testing.T, objects []interface{}, expectation map[string]interface{}) interface{} {
	t.Helper()
	var found []interface{}
	for _, object := range objects {
		name, named := expectation["name"]
		if at(object, "kind") == expectation["kind"] && (!named || at(object, "metadata", "name") == name) {
			found = append(found, object)
		}
	}
	if len(found) > 1 {
		t.Fatalf("%d objects of kind %v", len(found), expectation["kind"])
	}
	if len(found) == 0 {
		return "absent"
	}
	if expectation["absent"] == true {
		return "present"
	}
	value := found[0]
	for _, step := range expectation["path"].([]interface{}) {
		switch s := step.(type) {
		case string:
			value = at(value, s)
		case float64:
			value = at(value, int(s))
		case map[string]interface{}:
			var entry interface{}
			list, _ := value.([]interface{})
			for _, item := range list {
				if at(item, "name") == s["name"] {
					entry = item
				}
			}
			value = entry
		}
	}
	return value
}

func wantedAt(expectation map[string]interface{}) interface{} {
	if expectation["absent"] == true {
		return "absent"
	}
	return expectation["value"]
}

func caseTitle(prop string, value interface{}) string {
	text, _ := json.Marshal(value)
	return fmt.Sprintf("%s=%s", prop, text)
}

func TestOperatorOptionsTableCoversEveryField(t *testing.T) {
	fixture := readOptionsFixture(t)
	given := map[string]bool{}
	for _, c := range fixture.Cases {
		given[fieldName(c.Prop)] = true
	}
	fields := reflect.TypeOf(cdk8sdynamo.OperatorOptions{})
	for i := 0; i < fields.NumField(); i++ {
		if !given[fields.Field(i).Name] {
			t.Errorf("no case sets OperatorOptions.%s", fields.Field(i).Name)
		}
	}
	if len(given) != fields.NumField() {
		t.Errorf("%d props in the table, %d fields in OperatorOptions", len(given), fields.NumField())
	}
}

func TestOperatorOptionsShowInWhatIsRendered(t *testing.T) {
	for _, c := range readOptionsFixture(t).Cases {
		c := c
		t.Run(caseTitle(c.Prop, c.Value), func(t *testing.T) {
			switch {
			case len(c.Expect) > 0:
				fromConstruct := synthesizedObjects(t, c.Graph, c.options(t))
				fromDocuments := renderedObjects(t, c.Graph, c.options(t))
				for _, expectation := range c.Expect {
					for route, objects := range map[string][]interface{}{"DynamoGraph": fromConstruct, "renderYaml": fromDocuments} {
						got, want := seenAt(t, objects, expectation), wantedAt(expectation)
						if !reflect.DeepEqual(got, want) {
							t.Errorf("%s %v: got %#v, want %#v", route, expectation, got, want)
						}
					}
				}
			case c.Refused != "":
				message := panicMessage(func() { synthesizedObjects(t, c.Graph, c.options(t)) })
				if !strings.Contains(message, c.Refused) {
					t.Errorf("synth: panic %q, want one with %q", message, c.Refused)
				}
				message = panicMessage(func() { renderedObjects(t, c.Graph, c.options(t)) })
				if !strings.Contains(message, c.Refused) {
					t.Errorf("renderYaml: panic %q, want one with %q", message, c.Refused)
				}
			case c.NoEffect != "":
				without := typedOptions(t, c.With)
				if !reflect.DeepEqual(renderedObjects(t, c.Graph, c.options(t)), renderedObjects(t, c.Graph, without)) {
					t.Errorf("renderYaml: the objects change")
				}
				if !reflect.DeepEqual(synthesizedObjects(t, c.Graph, c.options(t)), renderedObjects(t, c.Graph, without)) {
					t.Errorf("DynamoGraph: the objects change")
				}
			}
		})
	}
}

func TestOperatorOptionsReadBackFromAConfigurationFileAndHelmValues(t *testing.T) {
	for _, c := range readOptionsFixture(t).Cases {
		c := c
		t.Run(caseTitle(c.Prop, c.Value), func(t *testing.T) {
			options := cdk8sdynamo.OperatorConfiguration_FromYaml(jsii.String(c.Config), jsii.String("config.yaml"))
			field := reflect.ValueOf(options).Elem().FieldByName(fieldName(c.Prop))
			if got := plain(t, field.Interface()); !reflect.DeepEqual(got, plain(t, c.Value)) {
				t.Errorf("read back %#v, want %#v", got, c.Value)
			}
			if c.Helm != "" {
				options := cdk8sdynamo.OperatorConfiguration_FromHelmValues(jsii.String(c.Helm), nil, nil)
				field := reflect.ValueOf(options).Elem().FieldByName(fieldName(c.Prop))
				if got := plain(t, field.Interface()); !reflect.DeepEqual(got, plain(t, c.Value)) {
					t.Errorf("from Helm values %#v, want %#v", got, c.Value)
				}
			}
		})
	}
}

func TestInvalidOperatorOptionsAreRefusedNamingTheProp(t *testing.T) {
	for _, invalid := range readOptionsFixture(t).Invalid {
		invalid := invalid
		t.Run(caseTitle(invalid.Prop, invalid.Value), func(t *testing.T) {
			props := map[string]interface{}{invalid.Prop: invalid.Value}
			for prop, value := range invalid.With {
				props[prop] = value
			}
			operator := typedOptions(t, props)
			chart := cdk8s.NewChart(cdk8s.NewApp(nil), jsii.String("llm"), nil)
			checks := map[string]func(){
				"llm/Graph: ": func() {
					cdk8sdynamo.NewDynamoGraph(chart, jsii.String("Graph"), &cdk8sdynamo.DynamoGraphProps{Operator: operator})
				},
				"llm/Imported: ": func() {
					cdk8sdynamo.DynamoGraph_FromYaml(chart, jsii.String("Imported"), jsii.String(graphFile(t, "graph.yaml")),
						&cdk8sdynamo.ImportOptions{Operator: operator})
				},
				"validateYaml ": func() {
					cdk8sdynamo.DynamoDocuments_ValidateYaml(jsii.String(graphFile(t, "graph.yaml")), &cdk8sdynamo.ValidateYamlOptions{Operator: operator})
				},
				"renderYaml ": func() {
					cdk8sdynamo.DynamoDocuments_RenderYaml(jsii.String(graphFile(t, "graph.yaml")), &cdk8sdynamo.RenderYamlOptions{Operator: operator})
				},
			}
			for prefix, call := range checks {
				want := invalid.Error
				if strings.HasPrefix(prefix, "llm/") {
					want = prefix + invalid.Error
				}
				if message := panicMessage(call); !strings.HasSuffix(message, want) {
					t.Errorf("%s: panic %q, want one ending %q", strings.TrimSpace(prefix), message, want)
				}
			}
		})
	}
}
