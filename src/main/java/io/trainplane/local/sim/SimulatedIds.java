package io.trainplane.local.sim;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Resource ids in AWS's shapes ({@code sg-0f3c…}, {@code fs-…}, {@code lt-…}) that look random but
 * come from a counter: the same sequence of calls gives the same ids, so runs are reproducible.
 */
final class SimulatedIds {
    private final String seed;
    private final AtomicLong counter = new AtomicLong();

    SimulatedIds(String seed) {
        this.seed = seed;
    }

    /** {@code prefix} followed by {@code hexDigits} lowercase hex digits. */
    String next(String prefix, int hexDigits) {
        return prefix
                + hex(seed + "/" + prefix + "/" + counter.incrementAndGet()).substring(0, hexDigits);
    }

    private static String hex(String input) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(input.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
