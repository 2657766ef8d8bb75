package io.trainplane.cli;

import io.trainplane.runs.RunError;
import io.trainplane.runs.RunPhase;
import io.trainplane.runs.RunResources;
import io.trainplane.runs.RunStatus;
import io.trainplane.runs.RunStore;
import io.trainplane.runs.StepEntry;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.eks.EksClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sfn.SfnClient;

/** Two runs in a run store, written through RunStore as the workflow writes them, and clients for the CLI. */
final class RunFixtures {
    static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    private RunFixtures() {}

    static void populate(DynamoDbClient dynamo, String table) {
        RunStore first = new RunStore(dynamo, table, Clock.fixed(T0, ZoneOffset.UTC));
        first.create("run-ok", "{\"runId\":\"run-ok\"}", "arn:aws:states:us-east-1:123456789012:execution:p:run-ok");
        first.addStep("run-ok", StepEntry.started("StartRun", T0).ended(T0.plusSeconds(2), "succeeded", null));
        first.addStep(
                "run-ok",
                StepEntry.started("CreateCluster", T0.plusSeconds(3)).ended(T0.plusSeconds(603), "succeeded", null));
        first.update("run-ok", r -> r.withStatus(RunStatus.SUCCEEDED)
                .withPhase(RunPhase.CLEANUP)
                .withMetrics(Map.of("accuracy", 0.81))
                .withResource(RunResources.CLEANUP_DELETED, List.of("eks:cluster/tp-run-ok")));
        RunStore later = new RunStore(dynamo, table, Clock.fixed(T0.plusSeconds(3600), ZoneOffset.UTC));
        later.create("run-bad", "{\"runId\":\"run-bad\"}", null);
        later.update("run-bad", r -> r.withStatus(RunStatus.FAILED)
                .withPhase(RunPhase.CLEANUP)
                .withError(new RunError(
                        "CheckNodegroup", "InsufficientCapacity", "no g5.2xlarge in us-east-1a", "line 1\nline 2")));
    }

    static CliClients clients(DynamoDbClient dynamo, CloudFormationClient cloudFormation, SfnClient sfn) {
        return clients(dynamo, cloudFormation, sfn, null, Terminal.NONE);
    }

    /** The clients, with {@code terminal} as the person at the keyboard (none: a script). */
    static CliClients clients(
            DynamoDbClient dynamo, CloudFormationClient cloudFormation, SfnClient sfn, Terminal terminal) {
        return clients(dynamo, cloudFormation, sfn, null, terminal);
    }

    /** The clients, with {@code s3} for the stack's artifacts bucket (null: none in this test). */
    static CliClients clients(
            DynamoDbClient dynamo, CloudFormationClient cloudFormation, SfnClient sfn, S3Client s3, Terminal terminal) {
        return new CliClients() {
            @Override
            public Terminal terminal() {
                return terminal;
            }

            @Override
            public DynamoDbClient dynamoDb() {
                return dynamo;
            }

            @Override
            public CloudFormationClient cloudFormation() {
                if (cloudFormation == null) throw new AssertionError("no CloudFormation in this test");
                return cloudFormation;
            }

            @Override
            public SfnClient sfn() {
                if (sfn == null) throw new AssertionError("no Step Functions in this test");
                return sfn;
            }

            @Override
            public EksClient eks() {
                throw new AssertionError("no EKS in this test");
            }

            @Override
            public S3Client s3() {
                if (s3 == null) throw new AssertionError("no S3 in this test");
                return s3;
            }

            @Override
            public String region() {
                return "us-east-1";
            }

            @Override
            public io.trainplane.aws.catalog.InstanceCatalog instanceCatalog() {
                return new OfflineCatalog();
            }

            @Override
            public java.time.Clock clock() {
                return io.trainplane.TestTime.clock();
            }
        };
    }

    /** Every client of {@code base}: a wrapper overrides what it changes. */
    static class Delegating implements CliClients {
        final CliClients base;

        Delegating(CliClients base) {
            this.base = base;
        }

        @Override
        public DynamoDbClient dynamoDb() {
            return base.dynamoDb();
        }

        @Override
        public CloudFormationClient cloudFormation() {
            return base.cloudFormation();
        }

        @Override
        public SfnClient sfn() {
            return base.sfn();
        }

        @Override
        public EksClient eks() {
            return base.eks();
        }

        @Override
        public S3Client s3() {
            return base.s3();
        }

        @Override
        public String region() {
            return base.region();
        }

        @Override
        public io.trainplane.kubernetes.ClusterAccess clusters() {
            return base.clusters();
        }

        @Override
        public io.trainplane.aws.catalog.InstanceCatalog instanceCatalog() {
            return base.instanceCatalog();
        }

        @Override
        public Map<String, String> environment() {
            return base.environment();
        }

        @Override
        public java.time.Clock clock() {
            return base.clock();
        }

        @Override
        public Terminal terminal() {
            return base.terminal();
        }

        @Override
        public void sleep(java.time.Duration d) throws InterruptedException {
            base.sleep(d);
        }
    }

    /** {@code base} with its own environment (TRAINPLANE_HOME → a test's own store) and a sleep that only counts. */
    static CliClients withEnvironment(CliClients base, Map<String, String> environment, Runnable onSleep) {
        return new Delegating(base) {
            @Override
            public Map<String, String> environment() {
                return environment;
            }

            @Override
            public void sleep(java.time.Duration d) {
                onSleep.run();
            }
        };
    }

    /** {@code base} on another clock: the day a spec is checked for. */
    static CliClients withClock(CliClients base, java.time.Clock clock) {
        return new Delegating(base) {
            @Override
            public java.time.Clock clock() {
                return clock;
            }
        };
    }

    /** {@code base} asking {@code catalog} for EC2's instance types and the Price List. */
    static CliClients withCatalog(CliClients base, io.trainplane.aws.catalog.InstanceCatalog catalog) {
        return new Delegating(base) {
            @Override
            public io.trainplane.aws.catalog.InstanceCatalog instanceCatalog() {
                return catalog;
            }
        };
    }
}
