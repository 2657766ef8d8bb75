# SAM's makefile builder calls build-<LogicalId> once per function; each function unzips its own
# artifact (io.trainplane.functions.Functions.artifact: StackConsistencyTest holds these lists to
# it): the Kubernetes functions the jar with fabric8, the others the AWS-only jar. Built once.
AWS_FUNCTIONS := StartRun CreateCluster CheckCluster CreateNodegroup CheckNodegroup CreateVolume CheckVolume \
                 RecordFailure FinishRun CloseRun SafetyNet Janitor StartScheduledRun
KUBERNETES_FUNCTIONS := ConfigureCluster ConnectCluster BindVolume StartDataJob StartTraining CheckTraining \
                        StartEvaluation CheckJob CollectResults Teardown
FUNCTIONS := $(AWS_FUNCTIONS) $(KUBERNETES_FUNCTIONS)

AWS_JAR := target/trainplane-lambda-aws.jar
KUBERNETES_JAR := target/trainplane-lambda-kubernetes.jar

# One Maven build writes both jars.
$(AWS_JAR):
	./mvnw -q -B -DskipTests package
$(KUBERNETES_JAR): $(AWS_JAR)
	test -f $@ || ./mvnw -q -B -DskipTests package

$(addprefix build-,$(addsuffix Function,$(AWS_FUNCTIONS))): $(AWS_JAR)
	cd "$(ARTIFACTS_DIR)" && unzip -q -o "$(CURDIR)/$(AWS_JAR)"

$(addprefix build-,$(addsuffix Function,$(KUBERNETES_FUNCTIONS))): $(KUBERNETES_JAR)
	cd "$(ARTIFACTS_DIR)" && unzip -q -o "$(CURDIR)/$(KUBERNETES_JAR)"

.PHONY: $(addprefix build-,$(addsuffix Function,$(FUNCTIONS)))
