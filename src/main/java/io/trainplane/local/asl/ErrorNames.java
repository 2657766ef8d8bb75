package io.trainplane.local.asl;

import java.util.List;
import java.util.Set;

/** The error names Step Functions defines, and how ErrorEquals matches them. */
final class ErrorNames {
    static final String ALL = "States.ALL";
    static final String TIMEOUT = "States.Timeout";
    static final String TASK_FAILED = "States.TaskFailed";
    static final String RUNTIME = "States.Runtime";
    static final String DATA_LIMIT_EXCEEDED = "States.DataLimitExceeded";
    static final String NO_CHOICE_MATCHED = "States.NoChoiceMatched";
    static final String RESULT_PATH_MATCH_FAILURE = "States.ResultPathMatchFailure";

    /** The States.* names a definition may use in ErrorEquals; any other States.* name is a typo. */
    static final Set<String> KNOWN = Set.of(
            ALL,
            TIMEOUT,
            TASK_FAILED,
            RUNTIME,
            DATA_LIMIT_EXCEEDED,
            NO_CHOICE_MATCHED,
            RESULT_PATH_MATCH_FAILURE,
            "States.HeartbeatTimeout",
            "States.Permissions",
            "States.ParameterPathFailure",
            "States.BranchFailed",
            "States.IntrinsicFailure",
            "States.ExceedToleratedFailureThreshold",
            "States.ItemReaderFailed",
            "States.ResultWriterFailed",
            "States.QueryEvaluationError",
            "States.Http.Socket",
            "States.Http.StatusCode");

    private ErrorNames() {}

    /**
     * States.Runtime and States.DataLimitExceeded are terminal: no retrier or catcher matches them,
     * not even States.ALL.
     */
    static boolean isTerminal(String error) {
        return RUNTIME.equals(error) || DATA_LIMIT_EXCEEDED.equals(error);
    }

    /**
     * Whether an ErrorEquals list matches an error: by exact name; States.ALL matches any error that
     * is not terminal; States.TaskFailed matches any such error except States.Timeout.
     */
    static boolean matches(List<String> errorEquals, String error) {
        if (isTerminal(error)) {
            return false;
        }
        for (String name : errorEquals) {
            if (name.equals(error) || name.equals(ALL) || (name.equals(TASK_FAILED) && !error.equals(TIMEOUT))) {
                return true;
            }
        }
        return false;
    }
}
