package io.trainplane.spec;

/** {@code workload.commands}: each role's command, null when the spec gives none. */
public record WorkloadCommands(WorkloadCommand prepare, WorkloadCommand train, WorkloadCommand evaluate) {}
