// The Go smoke test of the generated module. scripts/language-tests.sh runs it in a copy of this
// folder, with the main.go of docs/languages.md and `replace` directives to the module built into dist/go.
module cdk8s-dynamo-smoke

go 1.25
