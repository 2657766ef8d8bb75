package io.trainplane.local.iam;

/** template.yaml cannot be read or resolved for the local account; the message names the place and the fix. */
public class TemplateException extends RuntimeException {
    public TemplateException(String message) {
        super(message);
    }
}
