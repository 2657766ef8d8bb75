package io.trainplane.local.iam;

import java.security.SecureRandom;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;

/**
 * The credentials of the simulated account's callers, one key each, as AWS issues them: a role
 * session gets temporary credentials ({@code ASIA…} with a session token), the user long-term
 * ones ({@code AKIA…})
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_access-keys.html). What signs a
 * caller's EKS tokens in local mode, and what the simulated STS looks a token's key up in.
 */
public final class AccessKeys {
    private static final String BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    private static final String SECRET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

    /** One caller's key; {@code sessionToken} is null for the user's long-term key. */
    public record Key(String accessKeyId, String secretAccessKey, String sessionToken, Caller caller) {
        public AwsCredentials credentials() {
            return sessionToken == null
                    ? AwsBasicCredentials.create(accessKeyId, secretAccessKey)
                    : AwsSessionCredentials.create(accessKeyId, secretAccessKey, sessionToken);
        }
    }

    private final SecureRandom random = new SecureRandom();
    private final Map<Caller, Key> byCaller = new HashMap<>();
    private final Map<String, Key> byId = new HashMap<>();

    /** The caller's key, issued on first use. */
    public synchronized Key keyOf(Caller caller) {
        return byCaller.computeIfAbsent(caller, c -> {
            Key key = new Key(
                    (c.isUser() ? "AKIA" : "ASIA") + chars(BASE32, 16),
                    chars(SECRET, 40),
                    c.isUser() ? null : chars(SECRET, 64),
                    c);
            byId.put(key.accessKeyId(), key);
            return key;
        });
    }

    /** The key with this id, if this account issued it. */
    public synchronized Optional<Key> find(String accessKeyId) {
        return Optional.ofNullable(byId.get(accessKeyId));
    }

    private String chars(String alphabet, int n) {
        StringBuilder s = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            s.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return s.toString();
    }
}
