package io.trainplane.aws.efs;

import static io.trainplane.local.sim.SimulatedNetwork.STACK_VPC;
import static io.trainplane.local.sim.SimulatedNetwork.SUBNET_1A;
import static io.trainplane.local.sim.SimulatedNetwork.SUBNET_1A_SECOND;
import static io.trainplane.local.sim.SimulatedNetwork.SUBNET_1B;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainplane.TestTime;
import io.trainplane.aws.ResourceState;
import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import io.trainplane.local.asl.SimulatedClock;
import io.trainplane.local.sim.CallLog;
import io.trainplane.local.sim.FaultPlan;
import io.trainplane.local.sim.SimulatedEfs;
import io.trainplane.local.sim.SimulatedNetwork;
import io.trainplane.spec.Names;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.efs.model.MountTargetDescription;

/** EfsVolumes and MountTargetSecurityGroups against the simulated EFS, which refuses what EFS refuses. */
class MountTargetSecurityGroupsTest {
    static final String FIRST_CLUSTER = "sg-0c1a55e7000000001";
    static final String SECOND_CLUSTER = "sg-0c1a55e7000000002";
    static final String ELSEWHERE = "sg-0e15e3e7000000009";

    final SimulatedClock clock = new SimulatedClock(TestTime.START);
    final CallLog calls = new CallLog();
    final SimulatedNetwork network = SimulatedNetwork.stack()
            .addSecurityGroup(FIRST_CLUSTER, STACK_VPC)
            .addSecurityGroup(SECOND_CLUSTER, STACK_VPC)
            .addVpc("vpc-0e15e3e700000000a", "sg-0e15e3e7000000000")
            .addSecurityGroup(ELSEWHERE, "vpc-0e15e3e700000000a");
    final SimulatedEfs efs =
            new SimulatedEfs(calls, clock, new FaultPlan(), io.trainplane.local.iam.Authorizer.ALLOW_ALL, network);
    final EfsVolumes volumes = new EfsVolumes(efs);
    final MountTargetSecurityGroups groups = new MountTargetSecurityGroups(efs);

    /** A file system with available mount targets guarded by {@code group}, as an earlier run leaves it. */
    String fileSystemOfAnEarlierRun(String group) {
        String fs =
                volumes.createFileSystem(new Names("earlier"), new io.trainplane.aws.RunTags("trainplane", "earlier"));
        clock.advance(SimulatedEfs.FILE_SYSTEM_CREATING);
        volumes.ensureMountTargets(fs, List.of(SUBNET_1A, SUBNET_1B), List.of(group));
        clock.advance(SimulatedEfs.MOUNT_TARGET_CREATING);
        return fs;
    }

    List<List<String>> groupsOfEach(String fs) {
        return efs.describeMountTargets(r -> r.fileSystemId(fs)).mountTargets().stream()
                .map(mt -> efs.describeMountTargetSecurityGroups(r -> r.mountTargetId(mt.mountTargetId()))
                        .securityGroups())
                .toList();
    }

    int modifications() {
        return calls.counts().getOrDefault("efs:ModifyMountTargetSecurityGroups", 0);
    }

    @Test
    void twoSubnetsInOneZoneGetOneMountTargetAndASecondLookCreatesNothing() {
        String fs = volumes.createFileSystem(new Names("zones"), new io.trainplane.aws.RunTags("trainplane", "zones"));
        clock.advance(SimulatedEfs.FILE_SYSTEM_CREATING);
        List<String> subnets = List.of(SUBNET_1A, SUBNET_1A_SECOND, SUBNET_1B);

        List<String> first = volumes.ensureMountTargets(fs, subnets, List.of(FIRST_CLUSTER));
        List<String> second = volumes.ensureMountTargets(fs, subnets, List.of(FIRST_CLUSTER));

        assertThat(first).hasSize(2);
        assertThat(second).containsExactlyInAnyOrderElementsOf(first);
        assertThat(efs.describeMountTargets(r -> r.fileSystemId(fs)).mountTargets())
                .extracting(MountTargetDescription::availabilityZoneName)
                .containsExactlyInAnyOrder("us-east-1a", "us-east-1b");
        clock.advance(Duration.ofMinutes(2));
        assertThat(volumes.mountTargetsState(fs)).isEqualTo(new ResourceState.Ready());
    }

    @Test
    void theNewClustersGroupJoinsTheGroupsOfAnAdoptedFileSystemOnceAndLeavesAgain() {
        String fs = fileSystemOfAnEarlierRun(FIRST_CLUSTER);

        List<String> lacking = groups.without(fs, SECOND_CLUSTER);
        assertThat(lacking).hasSize(2);
        lacking.forEach(mt -> assertThat(groups.add(fs, mt, SECOND_CLUSTER)).isTrue());
        assertThat(groupsOfEach(fs)).containsOnly(List.of(FIRST_CLUSTER, SECOND_CLUSTER));

        // Again: nothing left to do, and nothing is sent.
        assertThat(groups.without(fs, SECOND_CLUSTER)).isEmpty();
        lacking.forEach(mt -> assertThat(groups.add(fs, mt, SECOND_CLUSTER)).isFalse());
        assertThat(modifications()).isEqualTo(2);

        lacking.forEach(mt -> assertThat(groups.remove(mt, SECOND_CLUSTER)).isTrue());
        lacking.forEach(mt -> assertThat(groups.remove(mt, SECOND_CLUSTER)).isFalse());
        assertThat(groupsOfEach(fs)).containsOnly(List.of(FIRST_CLUSTER));
        assertThat(modifications()).isEqualTo(4);
    }

    @Test
    void aMountTargetsOnlyGroupStaysAndAMissingMountTargetIsNothingToTakeBack() {
        String fs = fileSystemOfAnEarlierRun(FIRST_CLUSTER);
        String mt = groups.without(fs, SECOND_CLUSTER).get(0);

        assertThat(groups.remove(mt, FIRST_CLUSTER)).isFalse();
        assertThat(groups.remove("fsmt-0123456789abcdef0", FIRST_CLUSTER)).isFalse();
        assertThat(groupsOfEach(fs)).containsOnly(List.of(FIRST_CLUSTER));
        assertThat(modifications()).isZero();
    }

    @Test
    void aMountTargetWithFiveGroupsIsRefusedClearlyAndKeepsThem() {
        String fs = fileSystemOfAnEarlierRun(FIRST_CLUSTER);
        String mt = groups.without(fs, SECOND_CLUSTER).get(0);
        List<String> five = List.of(
                FIRST_CLUSTER,
                "sg-0f00000000000000b",
                "sg-0f00000000000000c",
                "sg-0f00000000000000d",
                "sg-0f00000000000000e");
        five.forEach(g -> network.addSecurityGroup(g, STACK_VPC));
        efs.modifyMountTargetSecurityGroups(r -> r.mountTargetId(mt).securityGroups(five));

        assertThatThrownBy(() -> groups.add(fs, mt, SECOND_CLUSTER))
                .isInstanceOfSatisfying(TerminalException.class, e -> {
                    assertThat(e.reason()).isEqualTo(FailureReason.SecurityGroupLimitExceeded);
                    assertThat(e.getMessage())
                            .contains(mt, fs, SECOND_CLUSTER, "already has 5 security groups", "remove a group");
                });
        assertThat(efs.describeMountTargetSecurityGroups(r -> r.mountTargetId(mt))
                        .securityGroups())
                .isEqualTo(five);
    }

    @Test
    void aClusterGroupOfAnotherVpcIsTerminalAndSaysWhatToFix() {
        String fs = fileSystemOfAnEarlierRun(FIRST_CLUSTER);
        String mt = groups.without(fs, ELSEWHERE).get(0);

        assertThatThrownBy(() -> groups.add(fs, mt, ELSEWHERE)).isInstanceOfSatisfying(TerminalException.class, e -> {
            assertThat(e.reason()).isEqualTo(FailureReason.SecurityGroupNotFound);
            assertThat(e.getMessage()).contains(ELSEWHERE, "volume.fileSystemId", "stack's VPC");
        });
    }
}
