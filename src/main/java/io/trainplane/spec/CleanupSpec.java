package io.trainplane.spec;

/** What the run keeps after it ends; everything else it created is deleted. */
public record CleanupSpec(boolean keepCluster, boolean keepVolume) {}
