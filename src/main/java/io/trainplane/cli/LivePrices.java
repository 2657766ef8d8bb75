package io.trainplane.cli;

import io.trainplane.aws.RunPrices;
import io.trainplane.aws.catalog.InstanceCatalog;
import io.trainplane.aws.catalog.LiveInstanceFacts;
import io.trainplane.core.TransientException;
import io.trainplane.spec.InvalidSpecException;
import io.trainplane.spec.RunSpec;
import java.io.PrintWriter;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * What {@code plan --stack} and {@code start --stack} learn of the run's instance types from EC2
 * and the Price List, as StartRun will ({@link LiveInstanceFacts}): what EC2's answer refutes in
 * the spec is refused (exit 2); when the APIs cannot be asked (no permission, no network), a
 * warning says so and the offline snapshot prices the run.
 */
final class LivePrices {
    private LivePrices() {}

    /** The run's prices as StartRun would price a run that a cost ceiling or budget must hold. */
    static RunPrices of(RunSpec run, RunPrices snapshot, CliClients clients, PrintWriter err) {
        LiveInstanceFacts.Checked live;
        try {
            live = LiveInstanceFacts.check(
                    run, snapshot, clients.instanceCatalog(), clients.clock().instant(), true);
        } catch (InstanceCatalog.CatalogError | TransientException | SdkException e) {
            err.println("warning: EC2 and the Price List could not be asked about the run's instance types ("
                    + e.getMessage() + "): the offline snapshot (" + snapshot.describe() + ") prices this run;"
                    + " allow ec2:DescribeInstanceTypes, ec2:DescribeSpotPriceHistory,"
                    + " ec2:DescribeCapacityBlockOfferings and pricing:GetProducts for live figures");
            return snapshot;
        }
        if (!live.problems().isEmpty()) {
            throw new InvalidSpecException(live.problems());
        }
        return live.prices();
    }
}
