package io.trainplane.local.iam;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import java.util.Map;

/**
 * What {@code Ref} and {@code Fn::GetAtt} return for each resource type the stack uses, as each
 * type's page of https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-template-resource-type-ref.html
 * gives it ("Return values"), with the ARN formats of the Service Authorization Reference. A
 * resource without an explicit name is named {@code <stack>-<LogicalId>} (CloudFormation adds a
 * random suffix too; the local account leaves it out so names are stable).
 */
final class ResourceAddresses {
    /** Each type's name property, for the types whose addresses the simulation knows. */
    private static final Map<String, String> NAME_PROPERTY = Map.ofEntries(
            Map.entry("AWS::IAM::Role", "RoleName"),
            Map.entry("AWS::IAM::ManagedPolicy", "ManagedPolicyName"),
            Map.entry("AWS::DynamoDB::Table", "TableName"),
            Map.entry("AWS::Events::EventBus", "Name"),
            Map.entry("AWS::Events::Rule", "Name"),
            Map.entry("AWS::Serverless::Function", "FunctionName"),
            Map.entry("AWS::Lambda::Function", "FunctionName"),
            Map.entry("AWS::Serverless::StateMachine", "Name"),
            Map.entry("AWS::StepFunctions::StateMachine", "StateMachineName"),
            Map.entry("AWS::Logs::LogGroup", "LogGroupName"),
            Map.entry("AWS::SNS::Topic", "TopicName"),
            Map.entry("AWS::S3::Bucket", "BucketName"),
            Map.entry("AWS::CloudWatch::Dashboard", "DashboardName"));

    private final Intrinsics intrinsics;
    private final LocalAccount account;

    ResourceAddresses(Intrinsics intrinsics, LocalAccount account) {
        this.intrinsics = intrinsics;
        this.account = account;
    }

    String name(String logicalId, JsonNode resource) {
        String type = resource.path("Type").asText();
        String property = NAME_PROPERTY.get(type);
        if (property == null && !type.equals("AWS::Lambda::Alias")) {
            throw notSimulated(logicalId, type);
        }
        JsonNode explicit =
                property == null ? null : resource.path("Properties").get(property);
        if (explicit == null) {
            // Bucket names are lowercase
            // (https://docs.aws.amazon.com/AmazonS3/latest/userguide/bucketnamingrules.html):
            // CloudFormation lowercases the generated one.
            String generated = account.stackName() + "-" + logicalId;
            return type.equals("AWS::S3::Bucket") ? generated.toLowerCase(java.util.Locale.ROOT) : generated;
        }
        return intrinsics.text(explicit, "Resources." + logicalId + ".Properties." + property);
    }

    /** {@code Ref logicalId}, or {@code Ref logicalId.Alias} for a SAM function with AutoPublishAlias. */
    JsonNode ref(String logicalId, String suffix, JsonNode resource) {
        String type = resource.path("Type").asText();
        if (suffix != null) {
            String alias = type.equals("AWS::Serverless::Function")
                    ? resource.path("Properties").path("AutoPublishAlias").asText(null)
                    : null;
            if (!suffix.equals("Alias") || alias == null) {
                throw new TemplateException("Ref " + logicalId + "." + suffix
                        + ": only the .Alias of a function with AutoPublishAlias is simulated");
            }
            return text(functionArn(logicalId, resource) + ":" + alias);
        }
        String name = name(logicalId, resource);
        return text(
                switch (type) {
                    case "AWS::Serverless::StateMachine", "AWS::StepFunctions::StateMachine" -> stateMachineArn(name);
                    case "AWS::SNS::Topic" -> account.arn("sns", true, name);
                    case "AWS::Events::Rule" ->
                        bus(logicalId, resource).equals("default") ? name : bus(logicalId, resource) + "|" + name;
                    case "AWS::Lambda::Alias" -> aliasArn(logicalId, resource);
                    // "Ref returns the ARN" of a customer managed policy.
                    case "AWS::IAM::ManagedPolicy" ->
                        account.arn("iam", false, "policy" + path(logicalId, resource) + name);
                    default -> name;
                });
    }

    JsonNode getAtt(String logicalId, String attribute, JsonNode resource) {
        String type = resource.path("Type").asText();
        String name = name(logicalId, resource);
        String value =
                switch (type + "." + attribute) {
                    case "AWS::IAM::Role.Arn" -> account.arn("iam", false, "role" + path(logicalId, resource) + name);
                    case "AWS::DynamoDB::Table.Arn" -> account.arn("dynamodb", true, "table/" + name);
                    case "AWS::Events::EventBus.Arn" -> account.arn("events", true, "event-bus/" + name);
                    case "AWS::Events::EventBus.Name",
                            "AWS::StepFunctions::StateMachine.Name",
                            "AWS::Serverless::StateMachine.Name",
                            "AWS::SNS::Topic.TopicName" -> name;
                    case "AWS::Events::Rule.Arn" ->
                        account.arn(
                                "events",
                                true,
                                "rule/"
                                        + (bus(logicalId, resource).equals("default")
                                                ? ""
                                                : bus(logicalId, resource) + "/")
                                        + name);
                    case "AWS::Serverless::Function.Arn", "AWS::Lambda::Function.Arn" ->
                        functionArn(logicalId, resource);
                    case "AWS::Serverless::StateMachine.Arn", "AWS::StepFunctions::StateMachine.Arn" ->
                        stateMachineArn(name);
                    // "Arn: The ARN of the log group, such as
                    // arn:aws:logs:us-west-1:123456789012:log-group:/mystack-testgroup-12ABC1AHVE:*"
                    case "AWS::Logs::LogGroup.Arn" -> account.arn("logs", true, "log-group:" + name + ":*");
                    case "AWS::SNS::Topic.TopicArn" -> account.arn("sns", true, name);
                    // S3 bucket ARNs name neither region nor account: arn:aws:s3:::name.
                    case "AWS::S3::Bucket.Arn" -> "arn:" + account.partition() + ":s3:::" + name;
                    default ->
                        throw new TemplateException("Fn::GetAtt " + logicalId + "." + attribute + ": attribute "
                                + attribute + " of " + type + " is not simulated");
                };
        return text(value);
    }

    private String functionArn(String logicalId, JsonNode resource) {
        return account.arn("lambda", true, "function:" + name(logicalId, resource));
    }

    private String stateMachineArn(String name) {
        return account.arn("states", true, "stateMachine:" + name);
    }

    /** AWS::Lambda::Alias (in SAM's output): its function, by name or ARN, and its Name. */
    private String aliasArn(String logicalId, JsonNode resource) {
        String where = "Resources." + logicalId + ".Properties.";
        String function = intrinsics.text(resource.path("Properties").path("FunctionName"), where + "FunctionName");
        String arn = function.startsWith("arn:") ? function : account.arn("lambda", true, "function:" + function);
        return arn + ":" + intrinsics.text(resource.path("Properties").path("Name"), where + "Name");
    }

    private String bus(String logicalId, JsonNode resource) {
        JsonNode bus = resource.path("Properties").get("EventBusName");
        return bus == null ? "default" : intrinsics.text(bus, "Resources." + logicalId + ".Properties.EventBusName");
    }

    /** A role's Path: "/" unless given (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_identifiers.html). */
    private String path(String logicalId, JsonNode resource) {
        JsonNode path = resource.path("Properties").get("Path");
        return path == null ? "/" : intrinsics.text(path, "Resources." + logicalId + ".Properties.Path");
    }

    private static TemplateException notSimulated(String logicalId, String type) {
        return new TemplateException("Ref/Fn::GetAtt of " + logicalId + ": resources of type " + type
                + " are not simulated (their names and ARNs are unknown to the local account)");
    }

    private static JsonNode text(String value) {
        return Json.NODES.textNode(value);
    }
}
