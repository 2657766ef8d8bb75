package io.trainplane.local.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainplane.local.asl.SimulatedClock;
import io.trainplane.local.iam.AuditLog;
import io.trainplane.local.iam.Caller;
import io.trainplane.local.iam.Callers;
import io.trainplane.local.iam.StackBucket;
import io.trainplane.local.iam.StackPrincipals;
import io.trainplane.local.iam.StackTemplate;
import io.trainplane.local.sim.SimulatedS3.S3Exception;
import io.trainplane.local.sim.SimulatedS3.Transport;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The simulated S3 with template.yaml's artifacts bucket and the stack's IAM. */
class SimulatedS3Test {
    static final StackTemplate STACK = StackTemplate.local();
    static final StackBucket ARTIFACTS = STACK.buckets().get("ArtifactsBucket");
    static final byte[] MODEL = "weights".getBytes(StandardCharsets.UTF_8);

    final CallLog calls = new CallLog();
    final AuditLog iam = new AuditLog(StackPrincipals.authorizer(STACK.policies()));
    final SimulatedS3 s3 = new SimulatedS3(calls, new SimulatedClock(SimAccount.START), new FaultPlan(), iam);
    final Caller pod = new StackPrincipals(STACK)
            .pod("RunOutputsRole", "tp-r1", "tp-r1-train-0", java.util.Map.of("kubernetes-namespace", "tp-r1"));

    SimulatedS3Test() {
        s3.createStackBucket(ARTIFACTS);
    }

    <T> T asPod(Supplier<T> work) {
        return Callers.as(pod, work);
    }

    @Test
    void theStackBucketIsTheTemplatesLockedDownBucket() {
        assertThat(ARTIFACTS.name()).isEqualTo("trainplane-artifactsbucket");
        assertThat(ARTIFACTS.arn()).isEqualTo("arn:aws:s3:::trainplane-artifactsbucket");
        assertThat(ARTIFACTS.blockPublicAcls()).isTrue();
        assertThat(ARTIFACTS.deniesInsecureTransport()).isTrue();
    }

    @Test
    void theRunsPodsWriteReadAndListOutputsUnderRunsWithTheirSha256() {
        String bucket = ARTIFACTS.name();
        var put = asPod(() -> s3.putObject(bucket, "runs/tp-r1/model.pt", MODEL, Transport.TLS));
        // sha256("weights")
        assertThat(put.sha256Hex()).isEqualTo("9a129038d9a00aed0cf6a7ea059ca50a813449061ab87848cf1a13eafdf33b2c");
        assertThat(asPod(() -> s3.getObject(bucket, "runs/tp-r1/model.pt", Transport.TLS)))
                .isEqualTo(MODEL);
        assertThat(asPod(() -> s3.headObject(bucket, "runs/tp-r1/model.pt", Transport.TLS))
                        .size())
                .isEqualTo(MODEL.length);
        assertThat(asPod(() -> s3.listObjectsV2(bucket, "runs/tp-r1/", Transport.TLS)))
                .extracting(SimulatedS3.ObjectVersion::key)
                .containsExactly("runs/tp-r1/model.pt");
        assertThat(calls.counts())
                .containsEntry("s3:PutObject", 1)
                .containsEntry("s3:GetObject", 1)
                .containsEntry("s3:HeadObject", 1)
                .containsEntry("s3:ListObjectsV2", 1);
        assertThat(iam.denials()).isEmpty();
    }

    /** EKS Pod Identity tags the session with the pod's namespace, and RunOutputsRole allows only that namespace's prefix. */
    @Test
    void aPodOfAnotherRunReachesNothingOfThisRunsPrefix() {
        String bucket = ARTIFACTS.name();
        asPod(() -> s3.putObject(bucket, "runs/tp-r1/model.pt", MODEL, Transport.TLS));
        Caller other = new StackPrincipals(STACK)
                .pod("RunOutputsRole", "tp-r2", "tp-r2-train-0", java.util.Map.of("kubernetes-namespace", "tp-r2"));
        List<Supplier<Object>> reaches = List.of(
                () -> s3.getObject(bucket, "runs/tp-r1/model.pt", Transport.TLS),
                () -> s3.putObject(
                        bucket, "runs/tp-r1/model.pt", "planted".getBytes(StandardCharsets.UTF_8), Transport.TLS),
                () -> s3.listObjectsV2(bucket, "runs/tp-r1/", Transport.TLS));
        for (Supplier<Object> reach : reaches) {
            assertThatThrownBy(() -> Callers.as(other, reach))
                    .isInstanceOfSatisfying(
                            S3Exception.class, e -> assertThat(e.status()).isEqualTo(403));
        }
        assertThat(iam.denials()).hasSize(3).allSatisfy(d -> assertThat(d.context())
                .containsEntry("aws:PrincipalTag/kubernetes-namespace", List.of("tp-r2")));
        assertThat(asPod(() -> s3.getObject(bucket, "runs/tp-r1/model.pt", Transport.TLS)))
                .isEqualTo(MODEL);
    }

    /** CopyObject reads the source and writes the copy: StartRun's role may do both for a checkpoint to resume from. */
    @Test
    void aCopyIsAuthorizedAsAReadOfTheSourceAndAWriteOfTheCopy() {
        String bucket = ARTIFACTS.name();
        asPod(() -> s3.putObject(bucket, "runs/tp-r1/checkpoint-epoch-2.pt", MODEL, Transport.TLS));
        Caller startRun = new StackPrincipals(STACK).function("StartRun");
        var copy = Callers.as(
                startRun,
                () -> s3.copyObject(
                        bucket,
                        "runs/tp-r1/checkpoint-epoch-2.pt",
                        bucket,
                        "runs/tp-r2/resume/checkpoint-epoch-2.pt",
                        Transport.TLS));
        assertThat(copy.sha256Hex()).isEqualTo("9a129038d9a00aed0cf6a7ea059ca50a813449061ab87848cf1a13eafdf33b2c");
        assertThatThrownBy(() -> Callers.as(
                        startRun,
                        () -> s3.copyObject(
                                bucket,
                                "runs/tp-r1/checkpoint-epoch-2.pt",
                                bucket,
                                "runs/tp-r2/model.pt",
                                Transport.TLS)))
                .isInstanceOfSatisfying(
                        S3Exception.class, e -> assertThat(e.status()).isEqualTo(403))
                .hasMessageContaining("s3:PutObject");
        assertThatThrownBy(() -> asPod(() -> s3.copyObject(
                        bucket, "runs/tp-r1/checkpoint-epoch-2.pt", bucket, "elsewhere/x.pt", Transport.TLS)))
                .hasMessageContaining("s3:PutObject");
    }

    @Test
    void thePodsMayNotWriteOutsideRunsNorDelete() {
        String bucket = ARTIFACTS.name();
        assertThatThrownBy(() -> asPod(() -> s3.putObject(bucket, "elsewhere/model.pt", MODEL, Transport.TLS)))
                .isInstanceOfSatisfying(
                        S3Exception.class, e -> assertThat(e.status()).isEqualTo(403))
                .hasMessageContaining("s3:PutObject")
                .hasMessageContaining("arn:aws:s3:::trainplane-artifactsbucket/elsewhere/model.pt");
        asPod(() -> s3.putObject(bucket, "runs/tp-r1/model.pt", MODEL, Transport.TLS));
        assertThatThrownBy(() -> asPod(() -> {
                    s3.deleteObject(bucket, "runs/tp-r1/model.pt", Transport.TLS);
                    return null;
                }))
                .isInstanceOfSatisfying(
                        S3Exception.class, e -> assertThat(e.code()).isEqualTo("AccessDenied"))
                .hasMessageContaining("s3:DeleteObject");
        assertThat(s3.versionCount(bucket, "runs/tp-r1/model.pt")).isEqualTo(1);
    }

    @Test
    void noFunctionOfTheStackMayReadOrWriteTheOutputs() {
        Caller cleanup = new StackPrincipals(STACK).function("Teardown");
        assertThatThrownBy(() -> Callers.as(
                        cleanup, () -> s3.putObject(ARTIFACTS.name(), "runs/tp-r1/model.pt", MODEL, Transport.TLS)))
                .isInstanceOf(S3Exception.class)
                .hasMessageContaining("s3:PutObject");
        assertThatThrownBy(() -> Callers.as(cleanup, () -> {
                    s3.deleteObject(ARTIFACTS.name(), "runs/tp-r1/model.pt", Transport.TLS);
                    return null;
                }))
                .isInstanceOf(S3Exception.class)
                .hasMessageContaining("s3:DeleteObject");
    }

    @Test
    void requestsWithoutTlsAreDeniedByTheBucketPolicyEvenToTheAdministrator() {
        assertThatThrownBy(() -> s3.putObject(ARTIFACTS.name(), "runs/x/model.pt", MODEL, Transport.PLAIN_HTTP))
                .isInstanceOfSatisfying(
                        S3Exception.class, e -> assertThat(e.status()).isEqualTo(403))
                .hasMessageContaining("explicit deny in a resource-based policy");
        assertThat(s3.versionCount(ARTIFACTS.name(), "runs/x/model.pt")).isZero();
    }

    @Test
    void publicAclsAreRefusedByBlockPublicAccess() {
        assertThatThrownBy(() ->
                        s3.putObject(ARTIFACTS.name(), "runs/x/model.pt", MODEL, Transport.tlsWithAcl("public-read")))
                .isInstanceOfSatisfying(
                        S3Exception.class, e -> assertThat(e.code()).isEqualTo("AccessDenied"))
                .hasMessageContaining("public-read");
        assertThat(s3.versionCount(ARTIFACTS.name(), "runs/x/model.pt")).isZero();
    }

    @Test
    void overwritesAndDeletesKeepOlderVersionsAndMissingThingsAreNotFound() {
        String bucket = ARTIFACTS.name();
        s3.putObject(bucket, "runs/x/ckpt.pt", MODEL, Transport.TLS);
        s3.putObject(bucket, "runs/x/ckpt.pt", "newer".getBytes(StandardCharsets.UTF_8), Transport.TLS);
        assertThat(new String(s3.getObject(bucket, "runs/x/ckpt.pt", Transport.TLS), StandardCharsets.UTF_8))
                .isEqualTo("newer");
        s3.deleteObject(bucket, "runs/x/ckpt.pt", Transport.TLS);
        assertThat(s3.versionCount(bucket, "runs/x/ckpt.pt")).isEqualTo(3);
        assertThatThrownBy(() -> s3.headObject(bucket, "runs/x/ckpt.pt", Transport.TLS))
                .isInstanceOfSatisfying(
                        S3Exception.class, e -> assertThat(e.code()).isEqualTo("NoSuchKey"));
        assertThat(s3.listObjectsV2(bucket, "runs/", Transport.TLS)).isEmpty();
        assertThatThrownBy(() -> s3.getObject("someone-elses-bucket", "k", Transport.TLS))
                .isInstanceOfSatisfying(
                        S3Exception.class, e -> assertThat(e.code()).isEqualTo("NoSuchBucket"));
    }
}
