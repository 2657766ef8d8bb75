package io.trainplane.local.iam;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.AbstractConstruct;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * CloudFormation YAML to a JSON tree: the short-form intrinsic tags become their long forms
 * ({@code !Ref X} → {@code {"Ref": "X"}}, {@code !GetAtt X.Arn} → {@code {"Fn::GetAtt": ["X", "Arn"]}}),
 * as https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/intrinsic-function-reference.html
 * gives them. Only the intrinsics the simulation resolves are read; any other tag is refused.
 */
final class CfnYaml {
    /** The intrinsic functions the resolver knows, by their long names. */
    static final Set<String> FUNCTIONS = Set.of(
            "Ref",
            "Condition",
            "Fn::GetAtt",
            "Fn::Sub",
            "Fn::Join",
            "Fn::If",
            "Fn::Not",
            "Fn::Equals",
            "Fn::And",
            "Fn::Or",
            "Fn::Select",
            "Fn::Split");

    private CfnYaml() {}

    static JsonNode read(String yaml, String source) {
        LoaderOptions options = new LoaderOptions();
        // CloudFormation refuses a template with a key twice in one mapping.
        options.setAllowDuplicateKeys(false);
        try {
            Object tree = new Yaml(new Constructor(options, source)).load(yaml);
            return Json.mapper().valueToTree(tree);
        } catch (YAMLException e) {
            throw new TemplateException(source + " is not valid YAML: " + e.getMessage());
        }
    }

    private static final class Constructor extends SafeConstructor {
        Constructor(LoaderOptions options, String source) {
            super(options);
            // Unquoted dates stay strings: CloudFormation has no timestamp type.
            yamlConstructors.put(Tag.TIMESTAMP, new ConstructYamlStr());
            for (String function : FUNCTIONS) {
                String tag = "!" + function.replace("Fn::", "");
                yamlConstructors.put(new Tag(tag), new Intrinsic(function));
            }
            yamlConstructors.put(null, new AbstractConstruct() {
                @Override
                public Object construct(Node node) {
                    throw new TemplateException(
                            source + " line " + (node.getStartMark().getLine() + 1) + ": "
                                    + node.getTag().getValue()
                                    + " is not an intrinsic function the simulation resolves (it knows "
                                    + FUNCTIONS.stream().sorted().toList() + ")");
                }
            });
        }

        /** {@code !Name value} → {@code {"Fn::Name": value}}. */
        private final class Intrinsic extends AbstractConstruct {
            private final String function;

            Intrinsic(String function) {
                this.function = function;
            }

            @Override
            public Object construct(Node node) {
                Object value =
                        switch (node) {
                            case ScalarNode scalar
                            when function.equals("Fn::GetAtt") -> {
                                String text = constructScalar(scalar);
                                int dot = text.indexOf('.');
                                yield dot < 0 ? text : List.of(text.substring(0, dot), text.substring(dot + 1));
                            }
                            case ScalarNode scalar -> constructScalar(scalar);
                            case SequenceNode sequence -> constructSequence(sequence);
                            case MappingNode mapping -> constructMapping(mapping);
                            default -> throw new TemplateException("unexpected YAML node " + node);
                        };
                Map<String, Object> call = new LinkedHashMap<>();
                call.put(function, value);
                return call;
            }
        }
    }
}
