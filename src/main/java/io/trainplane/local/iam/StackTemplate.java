package io.trainplane.local.iam;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * template.yaml as it deploys into the local account ({@link LocalAccount#LOCAL}): parameters,
 * conditions, the SAM transform's roles and every intrinsic function resolved. Its roles,
 * functions and state machines are read when it is loaded, so a problem shows at once.
 */
public final class StackTemplate {
    /** The local account's value of the parameters without a Default. */
    public static final Map<String, String> LOCAL_PARAMETERS = Map.of(
            "SubnetIds",
            "subnet-0a1b2c3d4e5f60001,subnet-0a1b2c3d4e5f60002",
            // The bucket examples/quickstart-fsx.json links its FSx for Lustre file system to.
            "LustreDataBuckets",
            "trainplane-example-data");
    /** Where the build puts template.yaml on the classpath (the pom's shipped-resources). */
    static final String RESOURCE = "template.yaml";
    /** Resources that change a role's permissions in ways the simulation does not model. */
    private static final Set<String> REFUSED_TYPES =
            Set.of("AWS::IAM::Policy", "AWS::IAM::RolePolicy", "AWS::Serverless::Connector");

    private final LocalAccount account;
    private final StackParameters parameters;
    private final ObjectNode resources;
    private final Intrinsics intrinsics;
    private final Map<String, Role> roles = new LinkedHashMap<>();
    private final Map<String, StackFunction> functions = new LinkedHashMap<>();
    private final Map<String, StackStateMachine> stateMachines = new LinkedHashMap<>();
    private final Map<String, StackBucket> buckets = new LinkedHashMap<>();

    private StackTemplate(JsonNode template, LocalAccount account, Map<String, String> parameterValues) {
        this.account = account;
        checkIntrinsics(template, "");
        this.parameters = StackParameters.of(template.path("Parameters"), parameterValues);
        this.resources = transformed(template, account);
        CloudFormationQuotas.check(template, resources, "template");
        this.intrinsics = new Intrinsics(account, parameters, template.path("Conditions"), resources);
        // Every condition decided now: a bad one is a load error, and later reads change nothing.
        template.path("Conditions").fieldNames().forEachRemaining(name -> intrinsics.condition(name, "Conditions"));
        // The stack's customer managed policies by ARN, for the roles that attach them.
        Map<String, JsonNode> customerPolicies = new LinkedHashMap<>();
        resources.properties().forEach(entry -> {
            if (entry.getValue().path("Type").asText().equals("AWS::IAM::ManagedPolicy")
                    && intrinsics.exists(entry.getKey())) {
                JsonNode ref = Json.NODES.objectNode().put("Ref", entry.getKey());
                customerPolicies.put(
                        intrinsics.text(ref, "Resources." + entry.getKey()),
                        StackRoles.managedPolicy(entry.getKey(), entry.getValue(), intrinsics));
            }
        });
        resources.properties().forEach(entry -> {
            String type = entry.getValue().path("Type").asText();
            if (REFUSED_TYPES.contains(type)
                    || type.startsWith("AWS::Serverless::")
                            && !Set.of("AWS::Serverless::Function", "AWS::Serverless::StateMachine")
                                    .contains(type)) {
                throw new TemplateException("Resources." + entry.getKey() + ": " + type
                        + " is not simulated (it changes what roles may do)");
            }
            if (type.equals("AWS::IAM::Role") && intrinsics.exists(entry.getKey())) {
                roles.put(
                        entry.getKey(),
                        StackRoles.role(entry.getKey(), entry.getValue(), intrinsics, customerPolicies));
            }
        });
        resources.properties().forEach(entry -> {
            String id = entry.getKey();
            switch (entry.getValue().path("Type").asText()) {
                case "AWS::Serverless::Function" -> {
                    if (intrinsics.exists(id)) {
                        functions.put(id, function(id, entry.getValue()));
                    }
                }
                case "AWS::Serverless::StateMachine" -> {
                    if (intrinsics.exists(id)) {
                        stateMachines.put(id, stateMachine(id, entry.getValue()));
                    }
                }
                case "AWS::S3::Bucket" -> {
                    if (intrinsics.exists(id)) {
                        buckets.put(id, bucket(id, entry.getValue()));
                    }
                }
                default -> {}
            }
        });
    }

    /** template.yaml from the classpath, with {@link #LOCAL_PARAMETERS}. */
    public static StackTemplate local() {
        return local(Map.of());
    }

    /** template.yaml from the classpath, with {@link #LOCAL_PARAMETERS} and then {@code overrides}. */
    public static StackTemplate local(Map<String, String> overrides) {
        Map<String, String> values = new LinkedHashMap<>(LOCAL_PARAMETERS);
        values.putAll(overrides);
        return parse(ShippedData.text(RESOURCE), RESOURCE, LocalAccount.LOCAL, values);
    }

    /** A template file (YAML or JSON) with exactly these parameter values over the Defaults. */
    public static StackTemplate read(Path file, Map<String, String> parameterValues) {
        try {
            return parse(Files.readString(file), file.toString(), LocalAccount.LOCAL, parameterValues);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static StackTemplate parse(
            String text, String source, LocalAccount account, Map<String, String> parameterValues) {
        JsonNode template = CfnYaml.read(text, source);
        if (template == null
                || !template.isObject()
                || !template.path("Resources").isObject()) {
            throw new TemplateException(source + " has no Resources section");
        }
        return new StackTemplate(template, account, parameterValues);
    }

    public LocalAccount account() {
        return account;
    }

    /** Every parameter's value; a list parameter's items joined with commas. */
    public Map<String, String> parameters() {
        Map<String, String> out = new LinkedHashMap<>();
        parameters.all().forEach((name, value) -> {
            List<String> items = new ArrayList<>();
            (value.isArray() ? value : List.of(value)).forEach(v -> items.add(v.asText()));
            out.put(name, String.join(",", items));
        });
        return out;
    }

    /** The roles the stack creates (a false Condition creates none), by logical id, in template order. */
    public Map<String, Role> roles() {
        return java.util.Collections.unmodifiableMap(roles);
    }

    /** What the role {@code logicalId} uses of each of IAM's quotas ({@link IamQuotas}). */
    public List<IamQuotas.Usage> quotas(String logicalId) {
        JsonNode trust = intrinsics.resolve(
                resources.path(logicalId).path("Properties").path("AssumeRolePolicyDocument"),
                "Resources." + logicalId + ".Properties.AssumeRolePolicyDocument");
        return IamQuotas.of(roles.get(logicalId), trust);
    }

    public StackPolicies policies() {
        return new StackPolicies(roles);
    }

    public Map<String, StackFunction> functions() {
        return java.util.Collections.unmodifiableMap(functions);
    }

    public Map<String, StackStateMachine> stateMachines() {
        return java.util.Collections.unmodifiableMap(stateMachines);
    }

    /**
     * The ARNs of the stack's roles whose trust policy allows {@code service} (pods.eks.amazonaws.com)
     * every one of {@code actions} (sts:AssumeRole, sts:TagSession).
     */
    public java.util.Set<String> rolesTrustedBy(String service, java.util.List<String> actions) {
        java.util.Set<String> arns = new java.util.TreeSet<>();
        roles.forEach((id, role) -> {
            java.util.Set<String> allowed = new java.util.HashSet<>();
            for (JsonNode statement : resources
                    .path(id)
                    .path("Properties")
                    .path("AssumeRolePolicyDocument")
                    .path("Statement")) {
                if (statement.path("Effect").asText().equals("Allow")
                        && values(statement.path("Principal").path("Service")).contains(service)) {
                    allowed.addAll(values(statement.path("Action")));
                }
            }
            if (allowed.containsAll(actions)) {
                arns.add(role.arn());
            }
        });
        return arns;
    }

    private static java.util.List<String> values(JsonNode node) {
        java.util.List<String> out = new java.util.ArrayList<>();
        if (node.isArray()) {
            node.forEach(v -> out.add(v.asText()));
        } else if (node.isTextual()) {
            out.add(node.asText());
        }
        return out;
    }

    /** The S3 buckets the stack creates, by logical id. */
    public Map<String, StackBucket> buckets() {
        return java.util.Collections.unmodifiableMap(buckets);
    }

    /** Whether the stack creates the resource {@code logicalId} (it is in the template and its Condition holds). */
    public boolean exists(String logicalId) {
        return resources.has(logicalId) && intrinsics.exists(logicalId);
    }

    private StackFunction function(String id, JsonNode function) {
        String where = "Resources." + id + ".Properties";
        JsonNode properties = function.path("Properties");
        String arn = intrinsics.text(getAtt(id, "Arn"), where);
        String alias = properties.has("AutoPublishAlias")
                ? intrinsics.text(Json.NODES.objectNode().put("Ref", id + ".Alias"), where)
                : null;
        Map<String, String> environment = new LinkedHashMap<>();
        intrinsics
                .resolve(properties.path("Environment").path("Variables"), where + ".Environment.Variables")
                .properties()
                .forEach(v -> environment.put(
                        v.getKey(), scalar(v.getValue(), where + ".Environment.Variables." + v.getKey())));
        // Lambda's defaults without a Timeout or MemorySize: 3 s and 128 MB
        // (https://docs.aws.amazon.com/lambda/latest/api/API_CreateFunction.html).
        int timeout = Integer.parseInt(
                scalar(intrinsics.resolve(properties.path("Timeout"), where + ".Timeout"), where + ".Timeout", "3"));
        int memory = Integer.parseInt(scalar(
                intrinsics.resolve(properties.path("MemorySize"), where + ".MemorySize"),
                where + ".MemorySize",
                "128"));
        return new StackFunction(
                id, intrinsics.name(id), arn, alias, roleOf(id, properties), environment, timeout, memory);
    }

    private StackBucket bucket(String id, JsonNode bucket) {
        String where = "Resources." + id + ".Properties";
        JsonNode block = bucket.path("Properties").path("PublicAccessBlockConfiguration");
        boolean deniesInsecure = false;
        for (var entry : resources.properties()) {
            JsonNode policy = entry.getValue();
            if (policy.path("Type").asText().equals("AWS::S3::BucketPolicy")
                    && policy.path("Properties")
                            .path("Bucket")
                            .path("Ref")
                            .asText()
                            .equals(id)) {
                for (JsonNode statement :
                        policy.path("Properties").path("PolicyDocument").path("Statement")) {
                    deniesInsecure |= statement.path("Effect").asText().equals("Deny")
                            && statement
                                    .path("Condition")
                                    .path("Bool")
                                    .path("aws:SecureTransport")
                                    .asText()
                                    .equals("false");
                }
            }
        }
        return new StackBucket(
                id,
                intrinsics.name(id),
                intrinsics.text(getAtt(id, "Arn"), where),
                block.path("BlockPublicAcls").asBoolean(false),
                deniesInsecure);
    }

    private StackStateMachine stateMachine(String id, JsonNode machine) {
        String where = "Resources." + id + ".Properties";
        JsonNode properties = machine.path("Properties");
        Map<String, String> substitutions = new LinkedHashMap<>();
        intrinsics
                .resolve(properties.path("DefinitionSubstitutions"), where + ".DefinitionSubstitutions")
                .properties()
                .forEach(s -> substitutions.put(
                        s.getKey(), scalar(s.getValue(), where + ".DefinitionSubstitutions." + s.getKey())));
        String definition = properties.has("DefinitionUri")
                ? intrinsics.text(properties.get("DefinitionUri"), where + ".DefinitionUri")
                : null;
        return new StackStateMachine(
                id,
                intrinsics.name(id),
                intrinsics.text(getAtt(id, "Arn"), where),
                roleOf(id, properties),
                definition,
                substitutions);
    }

    /** The role a function or state machine runs as: {@code Role: !GetAtt X.Arn}, or the one SAM generates. */
    private String roleOf(String id, JsonNode properties) {
        JsonNode role = properties.get("Role");
        if (role == null) {
            return id + "Role";
        }
        JsonNode getAtt = role.path("Fn::GetAtt");
        if (getAtt.isArray()
                && getAtt.size() == 2
                && getAtt.get(1).asText().equals("Arn")
                && roles.containsKey(getAtt.get(0).asText())) {
            return getAtt.get(0).asText();
        }
        throw new TemplateException("Resources." + id + ".Properties.Role: give !GetAtt <Role>.Arn of a role this stack"
                + " creates (got " + role + ")");
    }

    private static JsonNode getAtt(String id, String attribute) {
        ObjectNode call = Json.NODES.objectNode();
        call.putArray("Fn::GetAtt").add(id).add(attribute);
        return call;
    }

    /** {@code value}'s text, or {@code absent} when the template leaves it out. */
    private static String scalar(JsonNode value, String where, String absent) {
        return value.isMissingNode() ? absent : scalar(value, where);
    }

    private static String scalar(JsonNode value, String where) {
        if (!value.isValueNode() || value.isNull()) {
            throw new TemplateException(where + ": expected a string, got " + value);
        }
        return value.asText();
    }

    private static ObjectNode transformed(JsonNode template, LocalAccount account) {
        JsonNode transform = template.path("Transform");
        if (transform.isMissingNode()) {
            return template.get("Resources").deepCopy();
        }
        if (!transform.asText().equals(SamTransform.TRANSFORM)) {
            throw new TemplateException(
                    "Transform " + transform + " is not simulated (only " + SamTransform.TRANSFORM + " is)");
        }
        return new SamTransform(account).resources(template);
    }

    /** Refuses any intrinsic function the resolver does not know, wherever it is. */
    private static void checkIntrinsics(JsonNode node, String where) {
        if (node.isObject()) {
            node.properties().forEach(field -> {
                if (field.getKey().startsWith("Fn::") && !CfnYaml.FUNCTIONS.contains(field.getKey())) {
                    throw new TemplateException((where.isEmpty() ? "" : where + ": ") + field.getKey()
                            + " is not an intrinsic function the simulation resolves (it knows "
                            + CfnYaml.FUNCTIONS.stream().sorted().toList() + ")");
                }
                checkIntrinsics(field.getValue(), where.isEmpty() ? field.getKey() : where + "." + field.getKey());
            });
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                checkIntrinsics(node.get(i), where + "[" + i + "]");
            }
        }
    }
}
