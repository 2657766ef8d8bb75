package io.trainplane.cli;

import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.cloudformation.model.CloudFormationException;
import software.amazon.awssdk.services.cloudformation.model.Output;
import software.amazon.awssdk.services.cloudformation.model.Parameter;
import software.amazon.awssdk.services.cloudformation.model.Stack;

/** The outputs and parameters of a deployed Trainplane stack (template.yaml's Outputs and Parameters). */
final class StackOutputs {
    static final String RUNS_TABLE = "RunsTableName";
    static final String ARTIFACTS_BUCKET = "ArtifactsBucketName";
    static final String TRAINING_PIPELINE = "TrainingPipelineArn";

    private StackOutputs() {}

    static Map<String, String> of(CloudFormationClient cloudFormation, String stackName) {
        Map<String, String> outputs = new TreeMap<>();
        for (Output o : stack(cloudFormation, stackName).outputs()) {
            outputs.put(o.outputKey(), o.outputValue());
        }
        return outputs;
    }

    /** The stack's parameters as deployed, by name (template.yaml's Parameters). */
    static Map<String, String> parameters(CloudFormationClient cloudFormation, String stackName) {
        Map<String, String> parameters = new TreeMap<>();
        for (Parameter p : stack(cloudFormation, stackName).parameters()) {
            parameters.put(p.parameterKey(), p.parameterValue());
        }
        return parameters;
    }

    private static Stack stack(CloudFormationClient cloudFormation, String stackName) {
        Stack stack;
        try {
            stack = cloudFormation.describeStacks(r -> r.stackName(stackName)).stacks().stream()
                    .findFirst()
                    .orElseThrow(() -> new NotFoundException("no stack " + stackName));
        } catch (CloudFormationException e) {
            if (e.getMessage() != null && e.getMessage().contains("does not exist")) {
                throw new NotFoundException("no stack " + stackName + " in this account and region");
            }
            throw e;
        }
        return stack;
    }

    static String output(CloudFormationClient cloudFormation, String stackName, String key) {
        String value = of(cloudFormation, stackName).get(key);
        if (value == null) {
            throw new UserInputException(
                    "stack " + stackName + " has no output " + key + ": is it a Trainplane stack?");
        }
        return value;
    }
}
