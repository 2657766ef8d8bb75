package io.trainplane.local.asl;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * How a Task's Resource is called. The payload is the state's effective input (after InputPath and
 * Parameters). Returns the raw result, or throws {@link TaskFailure} whose error is the name Retry
 * and Catch match (for a Java Lambda, the exception's class name, e.g.
 * "io.trainplane.core.TransientException", or a service error such as "Lambda.ServiceException").
 *
 * <p>A RuntimeException escaping the invoker is reported the way Lambda reports an unhandled Java
 * exception: error = the exception's class name, cause = its message.
 */
@FunctionalInterface
public interface TaskInvoker {
    JsonNode invoke(String resource, JsonNode payload, TaskContext context) throws TaskFailure;
}
