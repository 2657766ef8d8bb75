package io.trainplane.workflow;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.aws.ResourceState;
import io.trainplane.core.FailureReason;
import io.trainplane.core.Json;
import io.trainplane.core.TerminalException;

/**
 * The answer of a check step about an AWS resource being created: done, not yet (wait this long),
 * or a terminal failure naming the resource and the provider's reason.
 */
final class ResourceWait {
    private ResourceWait() {}

    static ObjectNode look(ResourceState state, String what, int waitSeconds) {
        return switch (state) {
            case ResourceState.Ready r -> Json.object().put("done", true).put("waitSeconds", 0);
            case ResourceState.Creating c ->
                Json.object().put("done", false).put("waitSeconds", waitSeconds).put("detail", c.detail());
            case ResourceState.Failed f ->
                throw new TerminalException(FailureReason.ResourceFailed, what + " failed: " + f.reason());
            case ResourceState.Deleting d ->
                throw new TerminalException(
                        FailureReason.ResourceDeleted, what + " is being deleted while the run waits for it");
            case ResourceState.Gone g ->
                throw new TerminalException(
                        FailureReason.ResourceGone,
                        what + " does not exist although the run created it; was it deleted by hand?");
        };
    }
}
