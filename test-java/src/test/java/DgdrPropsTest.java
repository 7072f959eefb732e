// Every prop of DynamoGraphDeploymentRequestProps and of its nested props, set from Java through the
// builders (enums by member, numbers, booleans, Map<String, Object> for the plain JSON maps), reaches
// the synthesized request exactly. The table test/fixtures/dgdr-props/cases.json (shared with the
// TypeScript, Python and Go suites) gives the props and the request synthesized in GRAPH output;
// each prop is set by the builder method of its name, found by reflection, so a builder method the
// table does not name fails the coverage test (names compared without case: jsii names the method of
// `e2eLatency` `e2ELatency`). Read with cdk8s's own Yaml.load.
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.cdk8s_dynamo.DynamoGraphDeploymentRequest;
import io.github.cdk8s_dynamo.DynamoGraphDeploymentRequestProps;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.cdk8s.App;
import org.cdk8s.Chart;
import org.cdk8s.Yaml;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

class DgdrPropsTest {
    static final Path FILE = Path.of(System.getenv("GRAPH_FIXTURE")).getParent().resolveSibling("dgdr-props").resolve("cases.json");

    @SuppressWarnings("unchecked")
    static Map<String, Object> fixture() {
        return (Map<String, Object>) Yaml.load(FILE.toString()).get(0);
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> cases() {
        return (List<Map<String, Object>>) fixture().get("cases");
    }

    /**
     * The builder method of a prop (one argument; jsii makes one per prop). Its name is the prop's but
     * for case: jsii names the method of `e2eLatency` `e2ELatency`.
     */
    static Method setter(Class<?> builder, String prop) {
        for (Method method : builder.getMethods()) {
            if (method.getName().equalsIgnoreCase(prop) && method.getParameterCount() == 1) return method;
        }
        throw new AssertionError(builder.getName() + " has no method " + prop);
    }

    static boolean isStruct(Class<?> type) {
        try {
            return Modifier.isStatic(type.getMethod("builder").getModifiers());
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    static Class<?> elementClass(Type type) {
        Type element = ((ParameterizedType) type).getActualTypeArguments()[0];
        if (element instanceof WildcardType) element = ((WildcardType) element).getUpperBounds()[0];
        return element instanceof Class ? (Class<?>) element : Object.class;
    }

    /** A struct made by its builder, each key set by the method of its name, in the type it takes. */
    @SuppressWarnings("unchecked")
    static Object build(Class<?> type, Map<String, Object> json) {
        try {
            Object builder = type.getMethod("builder").invoke(null);
            for (Map.Entry<String, Object> entry : json.entrySet()) {
                Method method = setter(builder.getClass(), entry.getKey());
                method.invoke(builder, typed(method.getParameterTypes()[0], method.getGenericParameterTypes()[0], entry.getValue()));
            }
            return builder.getClass().getMethod("build").invoke(builder);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("cannot build " + type.getName() + " of " + json, e);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static Object typed(Class<?> type, Type generic, Object value) {
        if (type.isEnum()) return Enum.valueOf((Class<Enum>) type, (String) value);
        if (value instanceof Map && isStruct(type)) return build(type, (Map<String, Object>) value);
        if (value instanceof List && List.class.isAssignableFrom(type) && isStruct(elementClass(generic))) {
            List<Object> out = new ArrayList<>();
            for (Object item : (List<Object>) value) out.add(build(elementClass(generic), (Map<String, Object>) item));
            return out;
        }
        return value;
    }

    @TestFactory
    List<DynamicTest> everyPropReachesTheRequest() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Map<String, Object> c : cases()) {
            tests.add(DynamicTest.dynamicTest((String) c.get("title"), () -> {
                @SuppressWarnings("unchecked")
                DynamoGraphDeploymentRequestProps props = (DynamoGraphDeploymentRequestProps)
                        build(DynamoGraphDeploymentRequestProps.class, (Map<String, Object>) c.get("props"));
                App app = new App();
                new DynamoGraphDeploymentRequest(new Chart(app, "test"), "Request", props);
                assertEquals(OperatorOptionsTest.plain(List.of(c.get("expected"))), OperatorOptionsTest.objects(app.synthYaml()));
            }));
        }
        return tests;
    }

    @Test
    @SuppressWarnings("unchecked")
    void theTableSetsEveryBuilderMethod() {
        Set<String> given = new TreeSet<>();
        for (Map<String, Object> c : cases()) collect((Map<String, Object>) c.get("props"), "", given);
        Set<String> notHere = new TreeSet<>();
        for (String prop : ((Map<String, Object>) fixture().get("notHere")).keySet()) notHere.add(prop.toLowerCase());
        Set<String> missing = new TreeSet<>();
        check(DynamoGraphDeploymentRequestProps.class, "", given, notHere, missing);
        assertEquals(Set.of(), missing);
    }

    @SuppressWarnings("unchecked")
    static void collect(Map<String, Object> props, String prefix, Set<String> given) {
        for (Map.Entry<String, Object> entry : props.entrySet()) {
            String prop = entry.getKey().toLowerCase();
            given.add(prefix + prop);
            if (entry.getValue() instanceof Map) collect((Map<String, Object>) entry.getValue(), prefix + prop + ".", given);
        }
    }

    static void check(Class<?> struct, String prefix, Set<String> given, Set<String> notHere, Set<String> missing) {
        try {
            Class<?> builder = struct.getMethod("builder").getReturnType();
            for (Method method : builder.getDeclaredMethods()) {
                if (method.getParameterCount() != 1 || !Modifier.isPublic(method.getModifiers())) continue;
                String prop = method.getName().toLowerCase();
                if (prefix.isEmpty() && notHere.contains(prop)) continue;
                if (!given.contains(prefix + prop)) missing.add(prefix + prop);
                Class<?> type = method.getParameterTypes()[0];
                if (isStruct(type) && type.getPackageName().equals(struct.getPackageName())) check(type, prefix + prop + ".", given, notHere, missing);
            }
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }
}
