package io.trainplane.local.sim;

import io.trainplane.local.iam.AuditEntry;
import io.trainplane.local.iam.Authorizer;
import io.trainplane.local.iam.Callers;
import io.trainplane.local.iam.IamRequest;
import io.trainplane.local.iam.LocalAccount;
import io.trainplane.spec.SecretRef;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The account's Secrets Manager secrets and SSM parameters, as far as a run's pods read them
 * (GetSecretValue, GetParameter), each read authorized as the caller and audited like every other
 * call of the local account: IAM decides first, so a secret the caller may not read is
 * AccessDenied whether it exists or not, and one it may read but that does not exist is
 * ResourceNotFoundException (Secrets Manager) or ParameterNotFound (SSM).
 *
 * <p>A secret's ARN is {@code arn:aws:secretsmanager:REGION:ACCOUNT:secret:NAME-XXXXXX}, six
 * characters Secrets Manager appends (https://docs.aws.amazon.com/secretsmanager/latest/userguide/reference_iam-permissions.html#iam-resources);
 * a parameter's {@code arn:aws:ssm:REGION:ACCOUNT:parameter/NAME}, without a name's leading '/'
 * (https://docs.aws.amazon.com/systems-manager/latest/userguide/sysman-paramstore-access.html).
 *
 * <p>Lenient: only a secret's current string value (no versions, stages, SecretBinary or
 * rotation), no KMS (a customer managed key's kms:Decrypt is not asked), no throttling.
 */
public final class SimulatedSecrets {
    private final CallLog calls;
    private final Authorizer authorizer;
    private final LocalAccount account;
    /** Secrets by name. */
    private final Map<String, Stored> secrets = new ConcurrentHashMap<>();
    /** Parameters by name without its leading '/' (the part of the ARN after parameter/). */
    private final Map<String, String> parameters = new ConcurrentHashMap<>();

    private record Stored(String arn, String value) {}

    /** A refused or failed read: the service's error code and message, as the AWS CLI prints them. */
    public static final class SecretsException extends RuntimeException {
        private final String code;
        private final String operation;

        SecretsException(String operation, String code, String message) {
            super(message);
            this.code = code;
            this.operation = operation;
        }

        public String code() {
            return code;
        }

        /** The AWS CLI's line for it. */
        public String cliLine() {
            return "An error occurred (" + code + ") when calling the " + operation + " operation: " + getMessage();
        }
    }

    public SimulatedSecrets(CallLog calls, Authorizer authorizer, LocalAccount account) {
        this.calls = calls;
        this.authorizer = authorizer;
        this.account = account;
    }

    /** Creates or replaces the secret {@code name} with a string value; its ARN, suffix included. */
    public String putSecret(String name, String value) {
        String arn = "arn:" + account.partition() + ":secretsmanager:" + account.region() + ":" + account.accountId()
                + ":secret:" + name + "-" + suffix(name);
        secrets.put(name, new Stored(arn, value));
        return arn;
    }

    /** Creates or replaces the parameter {@code name} (a SecureString, say); its ARN. */
    public String putParameter(String name, String value) {
        String bare = name.startsWith("/") ? name.substring(1) : name;
        parameters.put(bare, value);
        return parameterArn(bare);
    }

    /** GetSecretValue's SecretString, {@code secretId} an ARN (with or without the suffix) or a name. */
    public String getSecretValue(String secretId) {
        calls.record("secretsmanager", "GetSecretValue");
        Stored found = secrets.values().stream()
                .filter(s -> s.arn().equals(secretId)
                        || s.arn().startsWith(secretId + "-")
                        || nameOf(s).equals(secretId))
                .findFirst()
                .orElse(null);
        String arn = found != null
                ? found.arn()
                : secretId.startsWith("arn:")
                        ? secretId
                        : "arn:" + account.partition() + ":secretsmanager:" + account.region() + ":"
                                + account.accountId() + ":secret:" + secretId;
        authorize("GetSecretValue", "secretsmanager:GetSecretValue", arn);
        if (found == null) {
            throw new SecretsException(
                    "GetSecretValue", "ResourceNotFoundException", "Secrets Manager can't find the specified secret.");
        }
        return found.value();
    }

    /** GetParameter's value, with decryption, {@code name} a name or an ARN. */
    public String getParameter(String name) {
        calls.record("ssm", "GetParameter");
        String bare = new SecretRef.SsmParameter(name).resourceName();
        authorize("GetParameter", "ssm:GetParameter", parameterArn(bare));
        String value = parameters.get(bare);
        if (value == null) {
            throw new SecretsException("GetParameter", "ParameterNotFound", "");
        }
        return value;
    }

    private void authorize(String operation, String action, String arn) {
        AuditEntry entry = authorizer.authorize(Callers.current(), IamRequest.of(action, arn));
        if (!entry.decision().allowed()) {
            throw new SecretsException(operation, "AccessDeniedException", AwsErrors.deniedMessage(entry));
        }
    }

    private String parameterArn(String bare) {
        return "arn:" + account.partition() + ":ssm:" + account.region() + ":" + account.accountId() + ":parameter/"
                + bare;
    }

    private static String nameOf(Stored s) {
        String afterSecret = s.arn().substring(s.arn().indexOf(":secret:") + ":secret:".length());
        return afterSecret.substring(0, afterSecret.length() - 7);
    }

    /** Six characters from the name, so that a local secret's ARN is the same on every run. */
    private static String suffix(String name) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
            String letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
            StringBuilder out = new StringBuilder();
            for (int i = 0; i < 6; i++) {
                out.append(letters.charAt((hash[i] & 0xff) % letters.length()));
            }
            return out.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has SHA-256", e);
        }
    }
}
