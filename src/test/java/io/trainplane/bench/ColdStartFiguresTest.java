package io.trainplane.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainplane.bench.ColdStart.Row;
import io.trainplane.bench.ColdStartFigures.Sample;
import java.util.List;
import org.junit.jupiter.api.Test;

class ColdStartFiguresTest {
    @Test
    void medianOfAnOddCountIsTheMiddleValueOfAnEvenCountTheMeanOfTheMiddleTwo() {
        assertThat(ColdStartFigures.median(List.of(900L, 700L, 1200L, 800L, 750L)))
                .isEqualTo(800.0);
        assertThat(ColdStartFigures.median(List.of(4L, 1L, 3L, 2L))).isEqualTo(2.5);
        assertThat(ColdStartFigures.median(List.of(7L))).isEqualTo(7.0);
        assertThatThrownBy(() -> ColdStartFigures.median(List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theTargetHoldsUpToAQuarterOverTheBaseline() {
        assertThat(ColdStartFigures.ratio(1250, 1000)).isEqualTo(1.25);
        assertThat(ColdStartFigures.withinTarget(1.25)).isTrue();
        assertThat(ColdStartFigures.withinTarget(1.2501)).isFalse();
    }

    @Test
    void parsesWhatTheHarnessPrints() {
        Sample ok = ColdStartFigures.parse("result ok\noutput {\"done\":true}\ntiming 412 903\nvmhwm 143872\n", 951, 0);
        assertThat(ok).isEqualTo(new Sample(951, 0, "ok", 412, 412, 903, 143872));
        assertThat(ok.invocationMillis()).isEqualTo(491);
        Sample primed = ColdStartFigures.parse("result ok\ntiming 412 903 800\nvmhwm 143872\n", 951, 0);
        assertThat(primed.invokedMillis()).isEqualTo(800);
        assertThat(primed.invocationMillis()).isEqualTo(103);
        assertThat(ok.served()).isTrue();
        assertThat(ok.outcome()).isEqualTo("ok");
    }

    @Test
    void aClassifiedFunctionErrorIsAServedInvocationALinkageErrorOrACrashIsNot() {
        Sample classified = ColdStartFigures.parse(
                "result error io.trainplane.core.TransientException cluster is CREATING\ntiming 1 2\nvmhwm 3\n", 10, 3);
        assertThat(classified.served()).isTrue();
        assertThat(classified.outcome()).isEqualTo("TransientException: cluster is CREATING");

        Sample broken =
                ColdStartFigures.parse("result error java.lang.NoClassDefFoundError io/fabric8/X\nvmhwm 3\n", 10, 4);
        assertThat(broken.served()).isFalse();
        assertThat(broken.outcome()).isEqualTo("NoClassDefFoundError: io/fabric8/X");

        Sample crashed = ColdStartFigures.parse("", 10, 1);
        assertThat(crashed.served()).isFalse();
        assertThat(crashed.builtMillis()).isEqualTo(-1);
        assertThat(crashed.outcome()).isEqualTo("no result (exit 1)");
    }

    @Test
    void aRowPassesWhenEveryRunWasServedAndTheMediansAreWithinTarget() {
        List<Sample> baseline = List.of(sample(1000), sample(1100), sample(900));
        Row fast = new Row(
                "CloseRun",
                "trainplane-lambda.jar",
                "2 AWS + 0 Kubernetes",
                List.of(sample(1200), sample(1100), sample(1300)),
                baseline,
                List.of(sample(800)),
                List.of());
        assertThat(fast.ratio()).isEqualTo(1.2);
        assertThat(fast.putItemRatio())
                .as("context: over the one-PutItem reference")
                .isEqualTo(1.5);
        assertThat(fast.pass()).isTrue();

        Row slow = new Row(
                "StartRun",
                "trainplane-lambda.jar",
                "2 AWS + 0 Kubernetes",
                List.of(sample(1600), sample(1500), sample(1400)),
                baseline,
                List.of(),
                List.of());
        assertThat(slow.pass()).isFalse();

        Row broken = new Row(
                "Teardown",
                "trainplane-lambda.jar",
                "2 AWS + 0 Kubernetes",
                List.of(sample(900), new Sample(950, 4, "error java.lang.NoClassDefFoundError x", 1, 1, 2, 3)),
                baseline,
                List.of(),
                List.of());
        assertThat(broken.pass()).isFalse();
        assertThat(ColdStart.line(broken)).contains("FAIL", "did not serve: NoClassDefFoundError: x");

        assertThat(ColdStart.summary(List.of(fast, slow, broken)))
                .startsWith("coldstart: 1 of 3 PASS")
                .contains("over the target: StartRun", "FAILED to serve: Teardown", "worst ratio 1.50 (StartRun)");
    }

    @Test
    void thePrimedLimitIs100MsForAwsOnlyFunctionsAnd250ForKubernetesOnes() {
        assertThat(ColdStartFigures.primedLimitMillis(false)).isEqualTo(100);
        assertThat(ColdStartFigures.primedLimitMillis(true)).isEqualTo(250);
        assertThat(ColdStartFigures.primedWithinTarget(100, false)).isTrue();
        assertThat(ColdStartFigures.primedWithinTarget(101, false)).isFalse();
        assertThat(ColdStartFigures.primedWithinTarget(250, true)).isTrue();
        assertThat(ColdStartFigures.primedWithinTarget(250.5, true)).isFalse();
    }

    @Test
    void aRowWithinItsRatioFailsWhenItsPrimedInvocationIsOverTheLimitOfItsArtifact() {
        List<Sample> baseline = List.of(sample(1000), sample(1000), sample(1000));
        List<Sample> fast = List.of(sample(1100), sample(1100), sample(1100));
        // 120 ms primed (median of 90, 120, 130): over an AWS-only function's 100, under a Kubernetes one's 250.
        List<Sample> primed = List.of(primed(90), primed(120), primed(130));

        Row aws = new Row(
                "CloseRun", "trainplane-lambda-aws.jar", "1 AWS + 0 Kubernetes", fast, baseline, List.of(), primed);
        assertThat(aws.kubernetes()).isFalse();
        assertThat(aws.primedMedian()).isEqualTo(120.0);
        assertThat(aws.ratioPass()).isTrue();
        assertThat(aws.primedPass()).isFalse();
        assertThat(aws.pass()).isFalse();
        assertThat(ColdStart.line(aws)).contains("FAIL>100");

        Row kubernetes = new Row(
                "CheckTraining",
                "trainplane-lambda-kubernetes.jar",
                "1 AWS + 3 Kubernetes",
                fast,
                baseline,
                List.of(),
                primed);
        assertThat(kubernetes.kubernetes()).isTrue();
        assertThat(kubernetes.pass()).isTrue();

        assertThat(ColdStart.summary(List.of(aws, kubernetes)))
                .startsWith("coldstart: 1 of 2 PASS (ratio ≤ 1.25, primed ≤ 100 ms AWS-only / 250 ms Kubernetes)")
                .contains("primed over its limit: CloseRun")
                .doesNotContain("over the target:");
    }

    @Test
    void aClassListHoldsWhatLoadedAfterTheInvocationStartedThatALoaderCanFindByName() {
        List<String> log = List.of(
                "[0.500s][info][class,load] io.trainplane.workflow.Priming source: file:/f.jar",
                "[0.600s][info][class,load] ColdStartHarness$InvocationStarts source: file:/h/",
                "[0.610s][info][class,load] software.amazon.awssdk.services.eks.model.Nodegroup source: file:/f.jar",
                "[0.611s][info][class,load] software.amazon.awssdk.services.eks.model.Nodegroup$$Lambda/0x0000000081 source:"
                        + " software.amazon.awssdk.services.eks.model.Nodegroup",
                "[0.612s][info][class,load] java.lang.invoke.LambdaForm$MH/0x0000000066290400 source: __JVM_LookupDefineClass__",
                "[0.613s][info][class,load] sun.net.www.http.KeepAliveCache source: jrt:/java.base");

        assertThat(ColdStartFigures.loadedAfterPriming(log))
                .containsExactly(
                        "software.amazon.awssdk.services.eks.model.Nodegroup", "sun.net.www.http.KeepAliveCache");
    }

    /** A primed run: built at 500 ms, invoked at 600 (after beforeCheckpoint), served after {@code invocation} ms. */
    private static Sample primed(long invocation) {
        return new Sample(1500, 0, "ok", 500, 600, 600 + invocation, 150_000);
    }

    private static Sample sample(long wallMillis) {
        return new Sample(wallMillis, 0, "ok", wallMillis / 2, wallMillis / 2, wallMillis - 10, 150_000);
    }
}
