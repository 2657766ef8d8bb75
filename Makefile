# SAM's makefile builder runs `make --makefile <this file> build-<LogicalId>` once per function,
# each in its own copy of the source tree (aws-lambda-builders' CustomMakeWorkflow), several at once
# with --parallel; each function unzips its own artifact. Which function ships which jar is declared
# in io.trainplane.workflow.Pipeline and made into functions.mk (AWS_FUNCTIONS, KUBERNETES_FUNCTIONS
# and their jars) by `make statemachines`. The Kubernetes functions get the jar with fabric8, the
# others the AWS-only jar. The jars are built in the checkout this Makefile is in, not in the copy,
# by one Maven run, and again only when a source is newer (scripts/build-jars.sh): built once, never stale.
SOURCE := $(patsubst %/,%,$(dir $(realpath $(firstword $(MAKEFILE_LIST)))))
include $(SOURCE)/functions.mk
FUNCTIONS := $(AWS_FUNCTIONS) $(KUBERNETES_FUNCTIONS)
JARS := $(SOURCE)/scripts/build-jars.sh $(AWS_JAR) $(KUBERNETES_JAR)

$(addprefix build-,$(addsuffix Function,$(AWS_FUNCTIONS))):
	$(JARS)
	cd "$(ARTIFACTS_DIR)" && unzip -q -o "$(SOURCE)/$(AWS_JAR)"

$(addprefix build-,$(addsuffix Function,$(KUBERNETES_FUNCTIONS))):
	$(JARS)
	cd "$(ARTIFACTS_DIR)" && unzip -q -o "$(SOURCE)/$(KUBERNETES_JAR)"

# The state machine definitions (statemachines/*.asl.json), functions.mk and template.yaml's function
# and log group resources (between its BEGIN and END lines), made from io.trainplane.workflow.Pipeline:
# StateMachinesTest writes them instead of comparing. Needs only Maven's local repository (add
# MVNFLAGS=-o to stay offline).
statemachines:
	./mvnw -q -B $(MVNFLAGS) test -Dtest=StateMachinesTest -Dtrainplane.regenerate=true

.PHONY: statemachines $(addprefix build-,$(addsuffix Function,$(FUNCTIONS)))
