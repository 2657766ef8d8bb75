# SAM's makefile builder calls build-<LogicalId> once per function; every function ships the
# same lean jar (target/trainplane-lambda.jar), built once.
FUNCTIONS := StartRun CreateCluster CheckCluster CreateNodegroup CheckNodegroup ConfigureCluster \
             ConnectCluster CreateVolume CheckVolume BindVolume StartDataJob StartTraining CheckTraining \
             StartEvaluation CheckJob CollectResults RecordFailure Teardown FinishRun \
             CloseRun SafetyNet Janitor StartScheduledRun

LAMBDA_JAR := target/trainplane-lambda.jar

$(LAMBDA_JAR):
	./mvnw -q -B -DskipTests package

$(addprefix build-,$(addsuffix Function,$(FUNCTIONS))): $(LAMBDA_JAR)
	cd "$(ARTIFACTS_DIR)" && unzip -q -o "$(CURDIR)/$(LAMBDA_JAR)"

.PHONY: $(addprefix build-,$(addsuffix Function,$(FUNCTIONS)))
