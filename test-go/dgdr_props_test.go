// Every prop of DynamoGraphDeploymentRequestProps and of its nested props, set from Go as fields of
// the typed structs (pointers, enum constants by member, *map[string]interface{} for the plain JSON
// maps), reaches the synthesized request exactly. The table test/fixtures/dgdr-props/cases.json
// (shared with the TypeScript, Python and Java suites) gives the props and the request synthesized
// in GRAPH output; the fields are set by reflection from the table, so a field the table does not
// name fails the coverage test. (This file sorts before smoke_test.go, whose last test ends the
// JavaScript runtime.)
package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/aws/jsii-runtime-go"
	"github.com/cdk8s-dynamo/cdk8s-dynamo-go/cdk8sdynamo"
	"github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2"
)

type dgdrPropsCase struct {
	Title    string                 `json:"title"`
	Props    map[string]interface{} `json:"props"`
	Expected interface{}            `json:"expected"`
}

type dgdrPropsFixture struct {
	Enums   map[string]string `json:"enums"`
	NotHere map[string]string `json:"notHere"`
	Cases   []dgdrPropsCase   `json:"cases"`
}

func readDgdrPropsFixture(t *testing.T) dgdrPropsFixture {
	t.Helper()
	file := filepath.Join(filepath.Dir(os.Getenv("GRAPH_FIXTURE")), "..", "dgdr-props", "cases.json")
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var fixture dgdrPropsFixture
	if err := json.Unmarshal(text, &fixture); err != nil {
		t.Fatal(err)
	}
	return fixture
}

// typedAs is a table value as a Go value of type typ: pointers, enum strings, maps, slices and
// structs (each key set on the field of its name) made by reflection.
func typedAs(t *testing.T, typ reflect.Type, value interface{}) reflect.Value {
	t.Helper()
	switch typ.Kind() {
	case reflect.Interface:
		return reflect.ValueOf(&value).Elem()
	case reflect.Ptr:
		out := reflect.New(typ.Elem())
		out.Elem().Set(typedAs(t, typ.Elem(), value))
		return out
	case reflect.String:
		out := reflect.New(typ).Elem()
		out.SetString(value.(string))
		return out
	case reflect.Float64:
		out := reflect.New(typ).Elem()
		out.SetFloat(value.(float64))
		return out
	case reflect.Bool:
		out := reflect.New(typ).Elem()
		out.SetBool(value.(bool))
		return out
	case reflect.Map:
		out := reflect.MakeMap(typ)
		for k, v := range value.(map[string]interface{}) {
			out.SetMapIndex(reflect.ValueOf(k), typedAs(t, typ.Elem(), v))
		}
		return out
	case reflect.Slice:
		out := reflect.MakeSlice(typ, 0, 0)
		for _, item := range value.([]interface{}) {
			out = reflect.Append(out, typedAs(t, typ.Elem(), item))
		}
		return out
	case reflect.Struct:
		out := reflect.New(typ).Elem()
		for k, v := range value.(map[string]interface{}) {
			field := out.FieldByName(fieldName(k))
			if !field.IsValid() {
				t.Fatalf("%s has no field %s", typ.Name(), fieldName(k))
			}
			field.Set(typedAs(t, field.Type(), v))
		}
		return out
	}
	t.Fatalf("no typed form of %s for %#v", typ, value)
	return reflect.Value{}
}

func TestEveryDgdrPropReachesTheRequest(t *testing.T) {
	for _, c := range readDgdrPropsFixture(t).Cases {
		c := c
		t.Run(c.Title, func(t *testing.T) {
			props := typedAs(t, reflect.TypeOf(&cdk8sdynamo.DynamoGraphDeploymentRequestProps{}), c.Props).Interface().(*cdk8sdynamo.DynamoGraphDeploymentRequestProps)
			app := cdk8s.NewApp(nil)
			cdk8sdynamo.NewDynamoGraphDeploymentRequest(cdk8s.NewChart(app, jsii.String("test"), nil), jsii.String("Request"), props)
			got := yamlObjects(t, *app.SynthYaml())
			if want := []interface{}{c.Expected}; !reflect.DeepEqual(got, want) {
				gotText, _ := json.Marshal(got)
				wantText, _ := json.Marshal(want)
				t.Errorf("synthesized\n%s\nwant\n%s", gotText, wantText)
			}
		})
	}
}

func TestTheDgdrPropsTableSetsEveryField(t *testing.T) {
	fixture := readDgdrPropsFixture(t)
	given := map[string]bool{}
	var collect func(props map[string]interface{}, prefix string)
	collect = func(props map[string]interface{}, prefix string) {
		for key, value := range props {
			given[prefix+fieldName(key)] = true
			if nested, ok := value.(map[string]interface{}); ok {
				collect(nested, prefix+fieldName(key)+".")
			}
		}
	}
	for _, c := range fixture.Cases {
		collect(c.Props, "")
	}
	var missing []string
	var check func(typ reflect.Type, prefix string)
	check = func(typ reflect.Type, prefix string) {
		for i := 0; i < typ.NumField(); i++ {
			field := typ.Field(i)
			if _, elsewhere := fixture.NotHere[strings.ToLower(field.Name[:1])+field.Name[1:]]; prefix == "" && elsewhere {
				continue
			}
			if !given[prefix+field.Name] {
				missing = append(missing, prefix+field.Name)
			}
			if field.Type.Kind() == reflect.Ptr && field.Type.Elem().Kind() == reflect.Struct &&
				field.Type.Elem().PkgPath() == reflect.TypeOf(cdk8sdynamo.DynamoGraphDeploymentRequestProps{}).PkgPath() {
				check(field.Type.Elem(), prefix+field.Name+".")
			}
		}
	}
	check(reflect.TypeOf(cdk8sdynamo.DynamoGraphDeploymentRequestProps{}), "")
	if len(missing) > 0 {
		t.Errorf("no case sets %v", missing)
	}
}
