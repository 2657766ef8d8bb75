package io.trainplane.local.iam;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import java.nio.charset.StandardCharsets;

/**
 * CloudFormation's quotas on a template, which a create or update meets before anything is made
 * (https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/cloudformation-limits.html).
 * Checked on the template as deployed: after the SAM transform.
 */
public final class CloudFormationQuotas {
    /** "Template body size in an Amazon S3 object": sam deploy uploads the template to S3. */
    public static final int TEMPLATE_BYTES = 1_048_576;
    /** "Resources: maximum number of resources that you can declare in your CloudFormation template." */
    public static final int RESOURCES = 500;
    /** "Parameters: maximum number of parameters that you can declare in your CloudFormation template." */
    public static final int PARAMETERS = 200;
    /** "Outputs: maximum number of outputs that you can declare in your CloudFormation template." */
    public static final int OUTPUTS = 200;

    private CloudFormationQuotas() {}

    /** Refuses a template over a quota with CloudFormation's ValidationError. */
    static void check(JsonNode template, JsonNode resources, String source) {
        int bytes = Json.write(template).getBytes(StandardCharsets.UTF_8).length;
        refuse(source, "template body", bytes, TEMPLATE_BYTES, "bytes");
        refuse(source, "Resources", resources.size(), RESOURCES, "resources");
        refuse(source, "Parameters", template.path("Parameters").size(), PARAMETERS, "parameters");
        refuse(source, "Outputs", template.path("Outputs").size(), OUTPUTS, "outputs");
    }

    private static void refuse(String source, String what, int used, int limit, String unit) {
        if (used > limit) {
            throw new TemplateException(source + ": " + what + " has " + used + " " + unit + ", over CloudFormation's "
                    + limit + "; the deploy fails with a ValidationError before anything is created"
                    + " (https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/cloudformation-limits.html)");
        }
    }
}
