package io.trainplane.spec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A command's environment variable whose value is a secret the run's pods read themselves, through
 * the run's identity: the spec, the run record, the events and the execution input carry only this
 * reference, never the value.
 */
public sealed interface SecretRef {
    /** The name IAM sees: the secret's or parameter's name, without a parameter's leading '/'. */
    String resourceName();

    /** The region and account an ARN names; empty for an SSM parameter given by name (the stack's own). */
    Optional<String> region();

    Optional<String> account();

    /** The reference as the spec writes it: {@code {"secretArn": ...}} or {@code {"ssmParameter": ...}}. */
    ObjectNode toJson();

    /**
     * A Secrets Manager secret by ARN: {@code arn:<partition>:secretsmanager:<region>:<account>:secret:<name>}
     * (https://docs.aws.amazon.com/secretsmanager/latest/userguide/reference_iam-permissions.html#iam-resources;
     * a name is letters, digits and /_+=.@-, and Secrets Manager appends '-' and six characters).
     */
    record SecretsManager(String arn) implements SecretRef {
        public static final String FIELD = "secretArn";
        public static final Pattern ARN = Pattern.compile(
                "arn:(aws[a-z-]*):secretsmanager:([a-z0-9-]+):([0-9]{12}):secret:([A-Za-z0-9/_+=.@-]+)");

        @Override
        public String resourceName() {
            return part(4);
        }

        @Override
        public Optional<String> region() {
            return Optional.of(part(2));
        }

        @Override
        public Optional<String> account() {
            return Optional.of(part(3));
        }

        @Override
        public ObjectNode toJson() {
            return JsonNodeFactory.instance.objectNode().put(FIELD, arn);
        }

        private String part(int group) {
            Matcher m = ARN.matcher(arn);
            return m.matches() ? m.group(group) : "";
        }
    }

    /**
     * An SSM parameter (String or SecureString, read with decryption), by name or ARN. A name that
     * starts with '/' has the ARN {@code arn:...:parameter/name-without-its-slash}
     * (https://docs.aws.amazon.com/systems-manager/latest/userguide/sysman-paramstore-access.html),
     * so the leading '/' is not part of what IAM matches.
     */
    record SsmParameter(String parameter) implements SecretRef {
        public static final String FIELD = "ssmParameter";
        /** A parameter's name: letters, digits and _.-/ (https://docs.aws.amazon.com/systems-manager/latest/userguide/sysman-parameter-name-constraints.html). */
        public static final Pattern NAME = Pattern.compile("/?[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*");

        public static final Pattern ARN = Pattern.compile(
                "arn:(aws[a-z-]*):ssm:([a-z0-9-]+):([0-9]{12}):parameter/([A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*)");

        @Override
        public String resourceName() {
            Matcher m = ARN.matcher(parameter);
            if (m.matches()) {
                return m.group(4);
            }
            return parameter.startsWith("/") ? parameter.substring(1) : parameter;
        }

        @Override
        public Optional<String> region() {
            Matcher m = ARN.matcher(parameter);
            return m.matches() ? Optional.of(m.group(2)) : Optional.empty();
        }

        @Override
        public Optional<String> account() {
            Matcher m = ARN.matcher(parameter);
            return m.matches() ? Optional.of(m.group(3)) : Optional.empty();
        }

        @Override
        public ObjectNode toJson() {
            return JsonNodeFactory.instance.objectNode().put(FIELD, parameter);
        }
    }

    /** The reference {@code value} of an env entry writes, or empty for a plain value. */
    static Optional<SecretRef> of(JsonNode value) {
        if (value.has(SecretsManager.FIELD)) {
            return Optional.of(
                    new SecretsManager(value.get(SecretsManager.FIELD).asText()));
        }
        if (value.has(SsmParameter.FIELD)) {
            return Optional.of(new SsmParameter(value.get(SsmParameter.FIELD).asText()));
        }
        return Optional.empty();
    }
}
