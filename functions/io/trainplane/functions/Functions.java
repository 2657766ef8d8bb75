package io.trainplane.functions;

import io.trainplane.clients.Clients;
import io.trainplane.workflow.StepHandler;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Every Lambda function of the stack by its name in template.yaml (the key of the state machines'
 * DefinitionSubstitutions, without "FunctionArn"). Local mode builds them from this list with its
 * own clients and invokes them as Lambda would.
 *
 * <p>Also the one list of which function ships which jar: the Makefile, the pom's artifact checks,
 * the benchmark and the tests read it from here (StackConsistencyTest holds the Makefile to it).
 */
public final class Functions {
    /** The functions whose steps connect to a cluster's Kubernetes API (they call {@code Services.clusters()}). */
    public static final Set<String> KUBERNETES = Set.of("ConfigureCluster", "ConnectCluster", "BindVolume",
            "StartDataJob", "StartTraining", "CheckTraining", "StartEvaluation", "CheckJob", "CollectResults",
            "Teardown");
    /** The functions that talk to AWS APIs only. With {@link #KUBERNETES}, every function of {@link #all()}. */
    public static final Set<String> AWS = Set.of("StartRun", "CreateCluster", "CheckCluster", "CreateNodegroup",
            "CheckNodegroup", "CreateVolume", "CheckVolume", "RecordFailure", "FinishRun", "CloseRun", "SafetyNet",
            "Janitor", "StartScheduledRun");

    private Functions() {}

    /** The jar a function ships (without loading any handler); unknown names are a bug in the caller. */
    public static LambdaArtifact artifact(String function) {
        if (KUBERNETES.contains(function)) {
            return LambdaArtifact.KUBERNETES;
        }
        if (AWS.contains(function)) {
            return LambdaArtifact.AWS;
        }
        throw new IllegalArgumentException("no function " + function);
    }

    /** The functions that ship the artifact, in the order of {@link #all()}. */
    public static List<String> shipping(LambdaArtifact artifact) {
        return all().keySet().stream().filter(name -> artifact(name) == artifact).toList();
    }

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
