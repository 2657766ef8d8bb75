package io.trainplane.cli;

import io.trainplane.spec.WorkloadCode;
import java.io.PrintWriter;
import java.util.function.Function;

/**
 * A {@code workload.code} of an s3:// prefix, looked at by the command line before anything is
 * created, with the credentials of whoever starts the run: a bucket that does not exist, or a
 * prefix with nothing under it, would otherwise fail the run's data pod (CodeFetchFailed) after its
 * cluster is built. StartRun cannot look (no function of the stack may read other buckets): a run
 * started from the console or the API meets it at the data pod.
 */
final class CodePrefixCheck {
    /** What a listing of the prefix (at most one key) answered. */
    enum Answer {
        OBJECTS,
        EMPTY,
        NO_SUCH_BUCKET,
        /** The caller may not list it; the run's pods may still read it (their role, not the caller's). */
        DENIED
    }

    private CodePrefixCheck() {}

    /** Refuses (invalid input) a missing bucket or an empty prefix; says so and goes on when the caller may not look. */
    static void require(WorkloadCode code, Function<WorkloadCode.S3Prefix, Answer> look, PrintWriter err) {
        if (!(code instanceof WorkloadCode.S3Prefix prefix)) {
            return;
        }
        switch (look.apply(prefix)) {
            case OBJECTS -> {}
            case NO_SUCH_BUCKET ->
                throw new UserInputException("workload.code " + prefix.uri() + ": the bucket " + prefix.bucket()
                        + " does not exist (S3 answered NoSuchBucket); check the bucket's name and region, or upload"
                        + " the code there first");
            case EMPTY ->
                throw new UserInputException("workload.code " + prefix.uri() + ": nothing is under "
                        + prefix.prefix() + "; upload the code there first (aws s3 cp --recursive DIR "
                        + prefix.prefix() + "), or give a local directory");
            case DENIED -> {
                err.println("warning: workload.code " + prefix.uri() + " could not be listed with your credentials;"
                        + " the run's pods read it with their own role");
                err.flush();
            }
        }
    }

    /** The prefix's key part: {@code s3://bucket/code/} is {@code code/}. */
    static String key(WorkloadCode.S3Prefix prefix) {
        return prefix.prefix().substring(("s3://" + prefix.bucket() + "/").length());
    }
}
