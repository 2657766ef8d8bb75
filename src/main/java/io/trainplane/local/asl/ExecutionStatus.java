package io.trainplane.local.asl;

/** The statuses of a Step Functions execution. */
public enum ExecutionStatus {
    RUNNING,
    SUCCEEDED,
    FAILED,
    ABORTED,
    TIMED_OUT
}
