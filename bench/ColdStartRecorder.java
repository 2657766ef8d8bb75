import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.core.util.SdkAutoConstructList;
import software.amazon.awssdk.core.util.SdkAutoConstructMap;

/**
 * Records the AWS calls of one invocation for ./bench/run coldstart, so that the function's own
 * baseline can make them again with plain SDK code. Registered as a global SDK interceptor by the
 * {@code software/amazon/awssdk/global/handlers/execution.interceptors} file ColdStart writes beside
 * it, on the recording process's classpath only (never a measured one, never a jar). Appends one
 * line per call to the file named by {@code COLDSTART_RECORD}:
 * {@code aws <TAB> <System.nanoTime> <TAB> <client interface> <TAB> <method> <TAB> <request as Java source>}.
 */
public final class ColdStartRecorder implements ExecutionInterceptor {
    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        long at = System.nanoTime();
        String operation = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
        String method = Character.toLowerCase(operation.charAt(0)) + operation.substring(1);
        String line = String.join("\t", "aws", Long.toString(at), clientInterface(), method, source(context.request()));
        try {
            Files.writeString(
                    Path.of(System.getenv("COLDSTART_RECORD")),
                    line + "\n",
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The sync client interface that made the call: the innermost {@code Default<Name>Client} on the stack. */
    private static String clientInterface() {
        for (StackTraceElement frame : Thread.currentThread().getStackTrace()) {
            String name = frame.getClassName();
            int dot = name.lastIndexOf('.');
            String simple = name.substring(dot + 1);
            if (name.startsWith("software.amazon.awssdk.services.")
                    && simple.startsWith("Default")
                    && simple.endsWith("Client")) {
                return name.substring(0, dot + 1) + simple.substring("Default".length());
            }
        }
        throw new IllegalStateException("no SDK client on the stack of an AWS call");
    }

    /** A Java expression that builds {@code value} again. */
    static String source(Object value) {
        return switch (value) {
            case null -> "null";
            case String s -> literal(s);
            case Integer i -> i.toString();
            case Long l -> l + "L";
            case Boolean b -> b.toString();
            case Double d -> "Double.valueOf(" + literal(d.toString()) + ")";
            case Float f -> "Float.valueOf(" + literal(f.toString()) + ")";
            case BigDecimal d -> "new java.math.BigDecimal(" + literal(d.toPlainString()) + ")";
            case Instant i -> "java.time.Instant.parse(" + literal(i.toString()) + ")";
            case SdkBytes b ->
                "software.amazon.awssdk.core.SdkBytes.fromByteArray(java.util.Base64.getDecoder().decode("
                        + literal(Base64.getEncoder().encodeToString(b.asByteArray())) + "))";
            case List<?> list ->
                "java.util.List.of("
                        + String.join(
                                ", ",
                                list.stream().map(ColdStartRecorder::source).toList()) + ")";
            case Map<?, ?> map -> {
                List<String> entries = new ArrayList<>();
                map.forEach((k, v) -> entries.add("java.util.Map.entry(" + source(k) + ", " + source(v) + ")"));
                yield "java.util.Map.ofEntries(" + String.join(", ", entries) + ")";
            }
            case SdkPojo pojo -> pojo(pojo);
            default -> throw new IllegalArgumentException("cannot write " + value.getClass() + " as Java source");
        };
    }

    /** {@code Type.builder().member(value)...build()}, the members that are set. */
    private static String pojo(SdkPojo pojo) {
        Class<?> type = pojo.getClass();
        StringBuilder out = new StringBuilder(type.getCanonicalName()).append(".builder()");
        for (SdkField<?> field : pojo.sdkFields()) {
            Object value = field.getValueOrDefault(pojo);
            if (value == null || value instanceof SdkAutoConstructList || value instanceof SdkAutoConstructMap) {
                continue;
            }
            out.append('.')
                    .append(setter(type, field.memberName(), value))
                    .append('(')
                    .append(source(value))
                    .append(')');
        }
        return out.append(".build()").toString();
    }

    /**
     * The builder's setter of a member: named after it, taking what the value is (not its Consumer
     * or varargs form). A list or map of enums holds their strings: its setter is {@code <member>WithStrings}.
     */
    private static String setter(Class<?> type, String member, Object value) {
        try {
            Class<?> builder = type.getMethod("builder").getReturnType();
            boolean strings =
                    (value instanceof Collection<?> list && list.stream().allMatch(String.class::isInstance))
                            || (value instanceof Map<?, ?> map
                                    && map.keySet().stream().allMatch(String.class::isInstance)
                                    && map.values().stream().allMatch(String.class::isInstance));
            for (Method m : builder.getMethods()) {
                if (strings
                        && m.getName().equalsIgnoreCase(member + "WithStrings")
                        && m.getParameterCount() == 1
                        && !m.isVarArgs()) {
                    return m.getName();
                }
            }
            for (Method m : builder.getMethods()) {
                if (m.getName().equalsIgnoreCase(member)
                        && m.getParameterCount() == 1
                        && !m.isVarArgs()
                        && (m.getParameterTypes()[0].isInstance(value)
                                || (value instanceof Collection<?>
                                        && Collection.class.isAssignableFrom(m.getParameterTypes()[0]))
                                || m.getParameterTypes()[0].isPrimitive())) {
                    return m.getName();
                }
            }
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException(type + " has no builder()", e);
        }
        throw new IllegalArgumentException(type + " has no setter for " + member);
    }

    /** A string literal; one over 16 K characters is joined at run time (a class constant holds 64 KB). */
    private static String literal(String s) {
        if (s.length() > 16_000) {
            List<String> parts = new ArrayList<>();
            for (int i = 0; i < s.length(); i += 16_000) {
                parts.add(literal(s.substring(i, Math.min(s.length(), i + 16_000))));
            }
            return "String.join(\"\", " + String.join(", ", parts) + ")";
        }
        StringBuilder out = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c > 0x7e) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
