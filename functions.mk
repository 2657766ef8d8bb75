# Made from io.trainplane.workflow.Pipeline by `make statemachines`: change the declaration, not this file.
# The functions each Lambda artifact ships, and its jar (the Makefile's build-<Name>Function targets).
AWS_FUNCTIONS := StartRun CreateCluster CheckCluster CreateNodegroup CheckNodegroup CreateVolume \
                 CheckVolume RecordFailure FinishRun CloseRun SafetyNet Janitor StartScheduledRun
AWS_JAR := target/trainplane-lambda-aws.jar
KUBERNETES_FUNCTIONS := ConfigureCluster ConnectCluster ScaleWorkers BindVolume StartDataJob \
                        StartTraining CheckTraining StartEvaluation StartOutputs CheckJob \
                        CollectResults Teardown
KUBERNETES_JAR := target/trainplane-lambda-kubernetes.jar
