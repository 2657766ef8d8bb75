package io.trainplane.aws;

import com.fasterxml.jackson.databind.node.ArrayNode;
import io.trainplane.core.Json;
import io.trainplane.spec.Names;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The AWS tags of everything a run creates: the stack that runs it, this deployment of it, and the
 * run's id. The janitor touches only what carries its own stack's tags, so two stacks in one
 * account, or two deployments of one stack name, leave each other's resources alone; the IAM
 * policies scope changes by the stack tag.
 *
 * @param stackId the deployment's id ({@link Settings#stackId}); null when unknown: not tagged
 */
public record RunTags(String stack, String runId, String stackId) {
    /** The stack (CloudFormation stack name; {@code trainplane} in local mode) that made the resource. */
    public static final String STACK_TAG = "trainplane:stack";
    /** The deployment of the stack that made the resource: the UUID in its AWS::StackId. */
    public static final String STACK_ID_TAG = "trainplane:stack-id";
    /** The run the resource belongs to ({@link Names#RUN_ID_TAG}). */
    public static final String RUN_ID_TAG = Names.RUN_ID_TAG;
    /** AWS tag values: at most 256 characters. */
    static final int MAX_TAG_VALUE = 256;

    public RunTags {
        Objects.requireNonNull(stack, "stack");
        Objects.requireNonNull(runId, "runId");
        if (stack.isBlank() || stack.length() > MAX_TAG_VALUE) {
            throw new IllegalArgumentException(
                    "a stack name is 1 to " + MAX_TAG_VALUE + " characters: '" + stack + "'");
        }
        if (!Names.isValidRunId(runId)) {
            throw new IllegalArgumentException("not a valid run id: " + runId);
        }
    }

    /** The tags of a run of a stack whose deployment is not known. */
    public RunTags(String stack, String runId) {
        this(stack, runId, null);
    }

    /** The tags of run {@code names} in the stack {@code settings} describe. */
    public static RunTags of(Settings settings, Names names) {
        return new RunTags(settings.stackName(), names.runId(), settings.stackId());
    }

    /** The tags, sorted by key (the same map, in the same order, on every attempt). */
    public Map<String, String> asMap() {
        Map<String, String> tags = new TreeMap<>();
        tags.put(STACK_TAG, stack);
        if (stackId != null) {
            tags.put(STACK_ID_TAG, stackId);
        }
        tags.put(RUN_ID_TAG, runId);
        return Collections.unmodifiableMap(tags);
    }

    /**
     * The tags as [{Key, Value}], sorted by key: the tag list of the CloudFormation resource
     * schemas, which Cloud Control's desired states follow (launch templates, placement groups,
     * log groups).
     */
    public ArrayNode asTagList() {
        ArrayNode list = Json.NODES.arrayNode();
        asMap().forEach((key, value) -> list.addObject().put("Key", key).put("Value", value));
        return list;
    }

    /** Whether {@code tags} (a resource's) carry all of these. */
    public boolean on(Map<String, String> tags) {
        return tags != null
                && stack.equals(tags.get(STACK_TAG))
                && runId.equals(tags.get(RUN_ID_TAG))
                && (stackId == null || stackId.equals(tags.get(STACK_ID_TAG)));
    }
}
