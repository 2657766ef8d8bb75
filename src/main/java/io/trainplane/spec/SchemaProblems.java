package io.trainplane.spec;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.ValidationMessage;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns the validator's messages into {@link SpecProblem}s a user can act on: the pointer of the
 * field at fault (for a missing or unknown field, the field itself), a plain message, and a hint
 * drawn from the schema (allowed values, bounds, {@code patternMeaning}, {@code examples},
 * descriptions, the condition of an {@code if}).
 */
final class SchemaProblems {
    private static final Pattern BRANCH = Pattern.compile("(/allOf/\\d+)?/(then|else)$");
    private static final Pattern PROPERTY = Pattern.compile("^(.*)/properties/([^/]+)$");

    private final SpecSchema schema;
    private final JsonNode document;

    private SchemaProblems(SpecSchema schema, JsonNode document) {
        this.schema = schema;
        this.document = document;
    }

    static List<SpecProblem> translate(SpecSchema schema, JsonNode document, Collection<ValidationMessage> messages) {
        SchemaProblems translator = new SchemaProblems(schema, document);
        List<SpecProblem> problems = new ArrayList<>();
        List<String> forbidden = new ArrayList<>();
        List<SpecProblem> wrongType = new ArrayList<>();
        for (ValidationMessage message : messages) {
            SpecProblem problem = translator.translate(message);
            problems.add(problem);
            if ("false".equals(message.getType())) {
                forbidden.add(problem.pointer() + "/");
            } else if ("type".equals(message.getType())) {
                wrongType.add(problem);
            }
        }
        // Inside a field that is not allowed at all, its own errors are noise; so are the other
        // errors of a value of the wrong type (a number is not "one of" the allowed strings).
        problems.removeIf(p -> forbidden.stream().anyMatch(f -> p.pointer().startsWith(f)));
        problems.removeIf(p -> !wrongType.contains(p)
                && wrongType.stream().anyMatch(t -> t.pointer().equals(p.pointer())));
        return problems;
    }

    private SpecProblem translate(ValidationMessage m) {
        String at = m.getInstanceLocation().toString();
        String keywordPath = m.getSchemaLocation().getFragment().toString();
        String schemaPath = parent(keywordPath);
        return switch (m.getType()) {
            case "type" -> type(at, schemaPath, m);
            case "enum" -> enumeration(at, schemaPath, m.getInstanceNode());
            case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum" ->
                bound(at, schemaPath, m.getType(), m.getInstanceNode());
            case "pattern" -> pattern(at, schemaPath, m.getInstanceNode());
            case "minLength", "maxLength" -> length(at, schemaPath, m.getType(), m.getInstanceNode());
            case "required" -> required(at, keywordPath, schemaPath, m.getProperty());
            case "additionalProperties" -> unknown(at, schemaPath, m.getProperty());
            case "false" -> forbidden(at, keywordPath, schemaPath);
            case "minItems", "maxItems", "uniqueItems" -> items(at, schemaPath, m.getType(), m.getInstanceNode());
            case "minProperties", "maxProperties" -> fields(at, schemaPath, m.getType());
            default ->
                new SpecProblem(
                        at,
                        stripLocation(m.getMessage(), at),
                        orElse(description(declaration(schemaPath)), "see run-spec.schema.json"));
        };
    }

    private SpecProblem type(String at, String schemaPath, ValidationMessage m) {
        String found = String.valueOf(m.getArguments()[0]);
        JsonNode types = schema.at(schemaPath).path("type");
        // A field of several types (an env value: a string, or a secret's reference object).
        String expected = types.isArray()
                ? String.join(
                        " or ",
                        java.util.stream.StreamSupport.stream(types.spliterator(), false)
                                .map(t -> article(t.asText()))
                                .toList())
                : types.asText(String.valueOf(m.getArguments()[1]));
        JsonNode value = m.getInstanceNode();
        JsonNode declaration = declaration(schemaPath);
        String hint;
        if (value != null && value.isTextual() && parsesAs(value.asText().trim(), expected)) {
            hint = "remove the quotes: write " + value.asText().trim() + ", not " + value;
        } else if ("string".equals(expected) && value != null && value.isValueNode() && !value.isNull()) {
            hint = "put the value in quotes: \"" + value.asText() + "\"";
        } else if ("integer".equals(expected) && value != null && value.isNumber()) {
            hint = "use a whole number" + exampleSuffix(declaration);
        } else {
            hint = "write " + article(expected) + exampleSuffix(declaration);
        }
        return new SpecProblem(at, "must be " + article(expected) + ", not " + article(found), hint);
    }

    private SpecProblem enumeration(String at, String schemaPath, JsonNode value) {
        List<String> allowed = new ArrayList<>();
        schema.at(schemaPath).path("enum").forEach(v -> allowed.add(v.asText()));
        String list = quotedList(allowed);
        Optional<String> suggestion =
                value != null && value.isTextual() ? Suggestions.closest(value.asText(), allowed) : Optional.empty();
        String hint = suggestion
                .map(s -> "did you mean \"" + s + "\"?")
                .orElse("use one of " + list + ". " + description(declaration(schemaPath)));
        return new SpecProblem(at, "must be one of " + list + ", not " + value, hint.trim());
    }

    private SpecProblem bound(String at, String schemaPath, String keyword, JsonNode value) {
        JsonNode node = schema.at(schemaPath);
        String limit = node.path(keyword).asText();
        String message =
                switch (keyword) {
                    case "minimum" -> "must be at least " + limit;
                    case "maximum" -> "must be at most " + limit;
                    case "exclusiveMinimum" -> "must be greater than " + limit;
                    default -> "must be less than " + limit;
                };
        return new SpecProblem(at, message + ", not " + value, range(node) + defaultSuffix(declaration(schemaPath)));
    }

    private SpecProblem pattern(String at, String schemaPath, JsonNode value) {
        JsonNode node = schema.at(schemaPath);
        JsonNode declaration = declaration(schemaPath);
        String meaning = node.path("patternMeaning")
                .asText(declaration.path("patternMeaning").asText(""));
        String message = meaning.isEmpty()
                ? "does not match the pattern " + node.path("pattern").asText()
                : "must be " + meaning;
        String text = value == null ? "" : value.asText();
        Pattern regex = Pattern.compile(node.path("pattern").asText());
        String hint = null;
        for (String candidate : List.of(text.trim(), text.trim().toLowerCase(Locale.ROOT))) {
            if (!candidate.equals(text) && regex.matcher(candidate).matches()) {
                hint = "did you mean \"" + candidate + "\"?";
                break;
            }
        }
        if (hint == null) {
            hint = example(declaration).map(e -> "for example " + e).orElse(description(declaration));
        }
        return new SpecProblem(at, message + " (got " + value + ")", hint);
    }

    private SpecProblem fields(String at, String schemaPath, String keyword) {
        String limit = schema.at(schemaPath).path(keyword).asText();
        String message = ("maxProperties".equals(keyword) ? "may have at most " : "must have at least ")
                + limit
                + ("1".equals(limit) ? " field" : " fields");
        return new SpecProblem(at, message, orElse(description(declaration(schemaPath)), "see run-spec.schema.json"));
    }

    private SpecProblem length(String at, String schemaPath, String keyword, JsonNode value) {
        String limit = schema.at(schemaPath).path(keyword).asText();
        int actual = value == null ? 0 : value.asText().length();
        String message = ("maxLength".equals(keyword) ? "must be at most " : "must be at least ") + limit
                + " characters long (it has " + actual + ")";
        return new SpecProblem(at, message, orElse(description(declaration(schemaPath)), "shorten it"));
    }

    private SpecProblem items(String at, String schemaPath, String keyword, JsonNode list) {
        JsonNode declaration = declaration(schemaPath);
        String description = description(declaration);
        return switch (keyword) {
            case "minItems" ->
                new SpecProblem(
                        at,
                        "must list at least " + declaration.path("minItems").asInt() + ", not " + list.size(),
                        ("add one. " + description).trim());
            case "maxItems" ->
                new SpecProblem(
                        at,
                        "lists " + list.size() + ", more than the "
                                + declaration.path("maxItems").asInt() + " allowed",
                        ("remove some. " + description).trim());
            default -> {
                List<String> seen = new ArrayList<>();
                String twice = null;
                for (JsonNode item : list) {
                    if (seen.contains(item.toString())) {
                        twice = item.toString();
                        break;
                    }
                    seen.add(item.toString());
                }
                yield new SpecProblem(
                        at,
                        "lists " + twice + " more than once",
                        "list each value once: remove the duplicate " + twice);
            }
        };
    }

    private SpecProblem required(String at, String keywordPath, String schemaPath, String property) {
        JsonNode declaration = schema.at(declaringObject(schemaPath) + "/properties/" + property);
        String hint = (description(declaration) + " Add it"
                        + example(declaration)
                                .map(e -> ", e.g. \"" + property + "\": " + e)
                                .orElse("") + ".")
                .trim();
        return new SpecProblem(child(at, property), "is required" + condition(keywordPath, at), hint);
    }

    private SpecProblem unknown(String at, String schemaPath, String property) {
        List<String> allowed = new ArrayList<>();
        schema.at(schemaPath).path("properties").fieldNames().forEachRemaining(allowed::add);
        String owner = at.isEmpty() ? "The top-level fields are " : "The fields of " + dotted(at) + " are ";
        String hint = Suggestions.closest(property, allowed)
                        .map(s -> "did you mean \"" + s + "\"? ")
                        .orElse("") + owner + String.join(", ", allowed) + ".";
        return new SpecProblem(child(at, property), "unknown field \"" + property + "\"", hint);
    }

    private SpecProblem forbidden(String at, String keywordPath, String schemaPath) {
        String description = description(declaration(schemaPath));
        return new SpecProblem(
                at, "is not allowed" + condition(keywordPath, parent(at)), ("remove it. " + description).trim());
    }

    /** " when cluster.mode is "create"": the {@code if} that made a {@code then} apply. */
    private String condition(String keywordPath, String objectPointer) {
        int branch = Math.max(keywordPath.lastIndexOf("/then/"), keywordPath.lastIndexOf("/else/"));
        if (branch < 0) {
            return "";
        }
        boolean negated = keywordPath.startsWith("/else/", branch);
        JsonNode condition = schema.at(keywordPath.substring(0, branch) + "/if");
        JsonNode object = document.at(objectPointer);
        List<String> parts = new ArrayList<>();
        for (Map.Entry<String, JsonNode> property : condition.path("properties").properties()) {
            if (property.getValue().has("const")) {
                String name = property.getKey();
                parts.add(dotted(child(objectPointer, name))
                        + (negated ? " is not " : " is ")
                        + property.getValue().get("const")
                        + (object.has(name) ? "" : " (the default)"));
            }
        }
        return parts.isEmpty() ? "" : " when " + String.join(" and ", parts);
    }

    /** The declaration of the property whose subschema is at {@code propertyPath}, outside any branch. */
    private JsonNode declaration(String propertyPath) {
        Matcher property = PROPERTY.matcher(propertyPath);
        if (property.matches()) {
            return schema.at(declaringObject(property.group(1)) + "/properties/" + property.group(2));
        }
        return schema.at(propertyPath);
    }

    /** "/properties/cluster/allOf/1/then" → "/properties/cluster". */
    private static String declaringObject(String path) {
        String previous;
        do {
            previous = path;
            path = BRANCH.matcher(path).replaceFirst("");
        } while (!path.equals(previous));
        return path;
    }

    private static String range(JsonNode node) {
        String kind = "integer".equals(node.path("type").asText()) ? "a whole number" : "a number";
        String lower = node.has("minimum")
                ? "from " + node.get("minimum").asText()
                : node.has("exclusiveMinimum")
                        ? "greater than " + node.get("exclusiveMinimum").asText()
                        : null;
        String upper = node.has("maximum")
                ? node.get("maximum").asText()
                : node.has("exclusiveMaximum")
                        ? "below " + node.get("exclusiveMaximum").asText()
                        : null;
        if (lower != null && upper != null) {
            boolean from = lower.startsWith("from") && !upper.startsWith("below");
            return "use " + kind + " " + lower + (from ? " to " : " and at most ") + upper;
        }
        return "use " + kind + (lower != null ? " " + lower : "") + (upper != null ? " up to " + upper : "");
    }

    private static Optional<String> example(JsonNode declaration) {
        if (declaration.path("examples").size() > 0) {
            return Optional.of(declaration.get("examples").get(0).toString());
        }
        if (declaration.has("default")) {
            return Optional.of(declaration.get("default").toString());
        }
        if (declaration.path("enum").size() > 0) {
            return Optional.of(declaration.get("enum").get(0).toString());
        }
        return Optional.empty();
    }

    private static String exampleSuffix(JsonNode declaration) {
        return example(declaration).map(e -> ", for example " + e).orElse("");
    }

    private static String defaultSuffix(JsonNode declaration) {
        return declaration.has("default") ? " (the default is " + declaration.get("default") + ")" : "";
    }

    private static String description(JsonNode declaration) {
        return declaration.path("description").asText("");
    }

    private static boolean parsesAs(String text, String type) {
        return switch (type) {
            case "integer" -> text.matches("-?[0-9]+");
            case "number" -> text.matches("-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?");
            case "boolean" -> text.equals("true") || text.equals("false");
            default -> false;
        };
    }

    private static String article(String type) {
        if (type.startsWith("a ") || type.startsWith("an ")) {
            return type;
        }
        return switch (type) {
            case "integer", "object", "array" -> "an " + type;
            case "null" -> "null";
            default -> "a " + type;
        };
    }

    private static String quotedList(List<String> values) {
        return "\"" + String.join("\", \"", values) + "\"";
    }

    private static String stripLocation(String message, String at) {
        String prefix = at + ": ";
        return message.startsWith(prefix) ? message.substring(prefix.length()) : message;
    }

    private static String orElse(String text, String fallback) {
        return text.isEmpty() ? fallback : text;
    }

    static String child(String pointer, String name) {
        return pointer + "/" + name.replace("~", "~0").replace("/", "~1");
    }

    static String parent(String pointer) {
        int slash = pointer.lastIndexOf('/');
        return slash < 0 ? "" : pointer.substring(0, slash);
    }

    /** "/cluster/nodeGroup" → "cluster.nodeGroup". */
    static String dotted(String pointer) {
        return pointer.isEmpty() ? "" : pointer.substring(1).replace('/', '.');
    }
}
