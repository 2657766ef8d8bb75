package io.trainplane.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.core.FailureReason;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** CheckData names a failed fetch of training.resumeFrom by what the AWS CLI (or the digest check) said. */
class CheckpointFailureTest {
    static final String URI = "s3://b/runs/r/checkpoint-epoch-1.pt";

    @Test
    void eachFailureSaysWhatToDo() {
        var missing = CheckJobStep.checkpointFailure(
                1,
                URI,
                Optional.of("fatal error: An error occurred (404) when calling the HeadObject operation: Key \"x\""
                        + " does not exist\n"));
        assertThat(missing.reason()).isEqualTo(FailureReason.CheckpointFetchFailed);
        assertThat(missing.getMessage()).contains(URI, "aws exited 1", "does not exist", "its .sha256 beside it");
        var credentials = CheckJobStep.checkpointFailure(
                255, URI, Optional.of("Unable to locate credentials. You can configure credentials"));
        assertThat(credentials.getMessage()).contains("aws exited 255", "Pod Identity association");
        var mismatch = CheckJobStep.checkpointFailure(3, URI, Optional.of("CHECKPOINT CHECKSUM MISMATCH ..."));
        assertThat(mismatch.reason()).isEqualTo(FailureReason.CheckpointChecksumMismatch);
        assertThat(mismatch.getMessage()).contains("does not match its .sha256", "resume from another checkpoint");
        var code = CheckJobStep.codeFailure(
                3, "./src", Optional.of("CODE DIGEST MISMATCH the files under s3://b/runs/tp-r/code/ have ..."));
        assertThat(code.reason()).isEqualTo(FailureReason.CodeDigestMismatch);
        assertThat(code.getMessage()).contains("not the package uploaded for this run", "start the run again");
    }
}
