package io.trainplane;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * What a test needs from the machine (moto_server, python3 with PyTorch or the SAM translator,
 * cfn-lint, Node.js and npm, {@code ../shared}). Where it is missing the test is skipped with a
 * message saying why, except under {@code CI=true}: every CI machine has them ({@code .ci/run} checks
 * first), so there the test fails instead and nothing is skipped silently.
 *
 * <p>Call it in the test or in {@code @BeforeEach}, never in {@code @BeforeAll}: Surefire reports a
 * class aborted before its tests as "Tests run: 0", which reads like a pass.
 */
public final class Prerequisite {
    /** Whether this is CI, where every prerequisite must be there. */
    public static final boolean CI = "true".equals(System.getenv("CI"));

    private Prerequisite() {}

    /** Skips the calling test (fails it under CI) unless {@code present}. */
    public static void require(boolean present, String why) {
        if (!present) {
            throw missing(why);
        }
    }

    /** Skips the calling test, or fails it under CI; returns for {@code throw missing(...)} where a value is expected. */
    public static RuntimeException missing(String why) {
        if (CI) {
            Assertions.fail(why + " (CI=true: every CI machine has it, so this test may not be skipped)");
        }
        throw Assumptions.<RuntimeException>abort(why);
    }
}
