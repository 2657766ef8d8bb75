package io.trainplane.functions;

import io.trainplane.aws.Clients;
import io.trainplane.workflow.StepHandler;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Every Lambda function of the stack by its name in template.yaml (the key of the state machines'
 * DefinitionSubstitutions, without "FunctionArn"). Local mode builds them from this list with its
 * own clients and invokes them as Lambda would.
 */
public final class Functions {
    private Functions() {}

    public static Map<String, Function<Clients, StepHandler>> all() {
        Map<String, Function<Clients, StepHandler>> all = new LinkedHashMap<>();
        all.put("StartRun", StartRun::new);
        all.put("CreateCluster", CreateCluster::new);
        all.put("CheckCluster", CheckCluster::new);
        all.put("CreateNodegroup", CreateNodegroup::new);
        all.put("CheckNodegroup", CheckNodegroup::new);
        all.put("ConfigureCluster", ConfigureCluster::new);
        all.put("ConnectCluster", ConnectCluster::new);
        all.put("CreateVolume", CreateVolume::new);
        all.put("CheckVolume", CheckVolume::new);
        all.put("BindVolume", BindVolume::new);
        all.put("StartDataJob", StartDataJob::new);
        all.put("StartTraining", StartTraining::new);
        all.put("CheckTraining", CheckTraining::new);
        all.put("StartEvaluation", StartEvaluation::new);
        all.put("CheckJob", CheckJob::new);
        all.put("CollectResults", CollectResults::new);
        all.put("RecordFailure", RecordFailure::new);
        all.put("Teardown", Teardown::new);
        all.put("FinishRun", FinishRun::new);
        all.put("CloseRun", CloseRun::new);
        all.put("SafetyNet", SafetyNet::new);
        all.put("Janitor", Janitor::new);
        all.put("StartScheduledRun", StartScheduledRun::new);
        return all;
    }
}
