package io.trainplane.workflow;

import java.time.Duration;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * template.yaml's resources of every function {@link Pipeline} declares: the
 * {@code AWS::Serverless::Function} and its {@code AWS::Logs::LogGroup}, written between two marker
 * lines of the template; what is outside them stays written by hand. What every function shares is
 * the template's Globals.
 */
public final class TemplateFunctions {
    static final String BEGIN = "  # BEGIN the functions, made from io.trainplane.workflow.Pipeline by `"
            + GeneratedFiles.COMMAND + "`: change the declaration, not these lines.";
    static final String END = "  # END the functions made from io.trainplane.workflow.Pipeline.";
    /** A YAML plain scalar that reads back as the same string (no ':' or '#', no flow or tag character). */
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9(][^:#{}\\[\\]&*!|>%@`]*[^ ]");

    private TemplateFunctions() {}

    /** {@code template} with the lines between the markers replaced by the declared functions' resources. */
    static String splice(String template) {
        int begin = template.indexOf(BEGIN + "\n");
        int end = template.indexOf(END + "\n");
        if (begin < 0
                || end < begin
                || template.indexOf(BEGIN, begin + 1) >= 0
                || template.indexOf(END, end + 1) >= 0) {
            throw new IllegalStateException("template.yaml needs the lines\n" + BEGIN + "\n" + END
                    + "\nonce each, in this order, under Resources: the declared functions go between them");
        }
        return template.substring(0, begin + BEGIN.length() + 1) + resources() + template.substring(end);
    }

    /** Every declared function's resources, in pipeline order, each followed by a blank line. */
    static String resources() {
        StringBuilder yaml = new StringBuilder();
        for (LambdaFunction function : Pipeline.FUNCTIONS) {
            yaml.append(resources(function));
        }
        return yaml.toString();
    }

    private static String resources(LambdaFunction function) {
        FunctionDeployment deployment = function.deployment();
        String condition = deployment.condition() == null ? "" : "    Condition: " + deployment.condition() + "\n";
        StringBuilder yaml = new StringBuilder();
        yaml.append("  ")
                .append(function.logicalId())
                .append(":\n    Type: AWS::Serverless::Function\n")
                .append(condition)
                .append("    Metadata:\n      BuildMethod: makefile\n    Properties:\n")
                .append("      Description: ")
                .append(scalar(deployment.description()))
                .append("\n      Handler: ")
                .append(function.handlerClass())
                .append("::handleRequest\n      Role: !GetAtt ")
                .append(deployment.role().logicalId())
                .append(".Arn\n");
        Duration timeout = deployment.timeout();
        if (timeout != null) {
            yaml.append("      Timeout: ").append(timeout.toSeconds()).append('\n');
        }
        if (!deployment.environment().isEmpty()) {
            yaml.append("      Environment:\n        Variables:\n");
            for (Map.Entry<String, String> variable : deployment.environment().entrySet()) {
                yaml.append("          ")
                        .append(variable.getKey())
                        .append(": ")
                        .append(variable.getValue())
                        .append('\n');
            }
        }
        if (!deployment.events().isBlank()) {
            yaml.append("      Events:\n");
            deployment.events().lines().forEach(line -> yaml.append(line.isBlank() ? "" : "        " + line)
                    .append('\n'));
        }
        yaml.append('\n')
                .append("  ")
                .append(function.name())
                .append("Logs:\n    Type: AWS::Logs::LogGroup\n")
                .append(condition)
                .append("    Properties:\n      LogGroupName: !Sub /aws/lambda/${")
                .append(function.logicalId())
                .append("}\n      RetentionInDays: !Ref LogRetentionDays\n\n");
        return yaml.toString();
    }

    /** {@code text} as a YAML scalar: plain where that reads back the same, else single-quoted. */
    static String scalar(String text) {
        return PLAIN.matcher(text).matches() ? text : "'" + text.replace("'", "''") + "'";
    }
}
