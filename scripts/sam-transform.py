#!/usr/bin/env python3
"""Prints a SAM template as the CloudFormation template AWS deploys (JSON), through AWS's own SAM
translator (pip package aws-sam-translator), with its intrinsic functions left unresolved.

Usage: scripts/sam-transform.py [template.yaml]

The IAM engine's peer test (SamTranslatorPeerTest) resolves this output and compares its roles
with the ones the engine generates itself. CodeUri and DefinitionUri are replaced by S3 locations
first, as `sam package` does (the translator accepts nothing else); no AWS call is made.
Exit 3 when the translator is not installed.
"""
import json
import os
import sys

os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")
try:
    from samtranslator.translator.transform import transform
    from samtranslator.yaml_helper import yaml_parse
except ImportError:
    print("aws-sam-translator is not installed (pip install aws-sam-translator)", file=sys.stderr)
    sys.exit(3)


class NoManagedPolicyLookup:
    """The translator maps managed policy names to ARNs from its bundled list; nothing is looked up in IAM."""

    def load(self):
        return {}


def packaged(template):
    """The template as `sam package` leaves it: code and definitions at S3 locations."""
    function_globals = template.get("Globals", {}).get("Function", {})
    if "CodeUri" in function_globals:
        function_globals["CodeUri"] = "s3://trainplane-artifacts/code.zip"
    for logical_id, resource in template.get("Resources", {}).items():
        properties = resource.get("Properties", {})
        if resource.get("Type") == "AWS::Serverless::Function" and "CodeUri" in properties:
            properties["CodeUri"] = "s3://trainplane-artifacts/" + logical_id + ".zip"
        if resource.get("Type") == "AWS::Serverless::StateMachine" and "DefinitionUri" in properties:
            properties["DefinitionUri"] = "s3://trainplane-artifacts/" + logical_id + ".asl.json"
    return template


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "template.yaml"
    with open(path, encoding="utf-8") as f:
        template = packaged(yaml_parse(f.read()))
    json.dump(transform(template, {}, NoManagedPolicyLookup()), sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
