# SAM's makefile builder calls build-<LogicalId> once per function; each function unzips its own
# artifact. Which function ships which jar is declared in io.trainplane.workflow.Pipeline and made
# into functions.mk (AWS_FUNCTIONS, KUBERNETES_FUNCTIONS and their jars) by `make statemachines`.
# The Kubernetes functions get the jar with fabric8, the others the AWS-only jar. Built once.
include $(dir $(lastword $(MAKEFILE_LIST)))functions.mk
FUNCTIONS := $(AWS_FUNCTIONS) $(KUBERNETES_FUNCTIONS)

# One Maven build writes both jars.
$(AWS_JAR):
	./mvnw -q -B -DskipTests package
$(KUBERNETES_JAR): $(AWS_JAR)
	test -f $@ || ./mvnw -q -B -DskipTests package

$(addprefix build-,$(addsuffix Function,$(AWS_FUNCTIONS))): $(AWS_JAR)
	cd "$(ARTIFACTS_DIR)" && unzip -q -o "$(CURDIR)/$(AWS_JAR)"

$(addprefix build-,$(addsuffix Function,$(KUBERNETES_FUNCTIONS))): $(KUBERNETES_JAR)
	cd "$(ARTIFACTS_DIR)" && unzip -q -o "$(CURDIR)/$(KUBERNETES_JAR)"

# The state machine definitions (statemachines/*.asl.json) and functions.mk, made from
# io.trainplane.workflow.Pipeline: StateMachinesTest writes them instead of comparing. Needs only
# Maven's local repository (add MVNFLAGS=-o to stay offline).
statemachines:
	. scripts/java-home.sh && ./mvnw -q -B $(MVNFLAGS) test -Dtest=StateMachinesTest -Dtrainplane.regenerate=true

.PHONY: statemachines $(addprefix build-,$(addsuffix Function,$(FUNCTIONS)))
