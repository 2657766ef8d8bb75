package io.trainplane.local.sim;

import static io.trainplane.local.sim.SimulatedNetwork.STACK_DEFAULT_GROUP;
import static io.trainplane.local.sim.SimulatedNetwork.STACK_VPC;
import static io.trainplane.local.sim.SimulatedNetwork.SUBNET_1A;
import static io.trainplane.local.sim.SimulatedNetwork.SUBNET_1A_SECOND;
import static io.trainplane.local.sim.SimulatedNetwork.SUBNET_1B;
import static io.trainplane.local.sim.SimulatedNetwork.SUBNET_1C;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.efs.model.AvailabilityZonesMismatchException;
import software.amazon.awssdk.services.efs.model.BadRequestException;
import software.amazon.awssdk.services.efs.model.CreateMountTargetRequest;
import software.amazon.awssdk.services.efs.model.IncorrectMountTargetStateException;
import software.amazon.awssdk.services.efs.model.IpAddressInUseException;
import software.amazon.awssdk.services.efs.model.MountTargetConflictException;
import software.amazon.awssdk.services.efs.model.MountTargetDescription;
import software.amazon.awssdk.services.efs.model.MountTargetNotFoundException;
import software.amazon.awssdk.services.efs.model.SecurityGroupLimitExceededException;
import software.amazon.awssdk.services.efs.model.SecurityGroupNotFoundException;
import software.amazon.awssdk.services.efs.model.SubnetNotFoundException;

/** The simulated EFS refuses the mount targets and security group changes EFS refuses. */
class SimulatedEfsMountTargetRulesTest {
    static final String OTHER_VPC = "vpc-0a0b0c0d0e0f01234";
    static final String OTHER_SUBNET = "subnet-0f0e0d0c0b0a09876";
    static final String OTHER_VPC_GROUP = "sg-0a0b0c0d0e0f05555";
    static final List<String> GROUPS = List.of(
            "sg-0000000000000000a",
            "sg-0000000000000000b",
            "sg-0000000000000000c",
            "sg-0000000000000000d",
            "sg-0000000000000000e",
            "sg-0000000000000000f");

    final SimAccount sim = new SimAccount();
    final String fs;

    SimulatedEfsMountTargetRulesTest() {
        sim.network
                .addVpc(OTHER_VPC, "sg-0a0b0c0d0e0f0dddd")
                .addSubnet(OTHER_SUBNET, OTHER_VPC, "us-east-1d", "172.31.0.0/24")
                .addSecurityGroup(OTHER_VPC_GROUP, OTHER_VPC);
        GROUPS.forEach(g -> sim.network.addSecurityGroup(g, STACK_VPC));
        fs = sim.efs
                .createFileSystem(SimulatedEfsTest.fileSystem("token", "run-1"))
                .fileSystemId();
        sim.advance(SimulatedEfs.FILE_SYSTEM_CREATING);
    }

    String create(String subnet, String... groups) {
        return sim.efs
                .createMountTarget(r -> r.fileSystemId(fs).subnetId(subnet).securityGroups(groups))
                .mountTargetId();
    }

    List<MountTargetDescription> mountTargets() {
        return sim.efs.describeMountTargets(r -> r.fileSystemId(fs)).mountTargets();
    }

    List<String> groupsOf(String mountTarget) {
        return sim.efs
                .describeMountTargetSecurityGroups(r -> r.mountTargetId(mountTarget))
                .securityGroups();
    }

    static void refused(
            Runnable call, Class<? extends AwsServiceException> type, String code, int status, String message) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(type, e -> {
            assertThat(e.awsErrorDetails().errorCode()).isEqualTo(code);
            assertThat(e.statusCode()).isEqualTo(status);
            assertThat(e.getMessage()).contains(message);
        });
    }

    @Test
    void theSubnetMustExist() {
        refused(
                () -> create("subnet-0123456789abcdef0"),
                SubnetNotFoundException.class,
                "SubnetNotFound",
                400,
                "subnet-0123456789abcdef0");
        assertThat(mountTargets()).isEmpty();
    }

    @Test
    void oneMountTargetPerAvailabilityZoneEvenInAnotherSubnetAndWhileOneIsDeleting() {
        String first = create(SUBNET_1A);
        refused(
                () -> create(SUBNET_1A_SECOND),
                MountTargetConflictException.class,
                "MountTargetConflict",
                409,
                "mount target already exists in this AZ");
        refused(() -> create(SUBNET_1A), MountTargetConflictException.class, "MountTargetConflict", 409, "this AZ");
        create(SUBNET_1B);
        create(SUBNET_1C);

        sim.advance(SimulatedEfs.MOUNT_TARGET_CREATING);
        sim.efs.deleteMountTarget(r -> r.mountTargetId(first));
        refused(
                () -> create(SUBNET_1A_SECOND),
                MountTargetConflictException.class,
                "MountTargetConflict",
                409,
                "this AZ");
        sim.advance(SimulatedEfs.DELETING);
        create(SUBNET_1A_SECOND);
        assertThat(mountTargets())
                .extracting(MountTargetDescription::availabilityZoneName)
                .containsExactlyInAnyOrder("us-east-1a", "us-east-1b", "us-east-1c");
    }

    @Test
    void allMountTargetsOfAFileSystemAreInOneVpc() {
        create(SUBNET_1A);
        refused(
                () -> create(OTHER_SUBNET),
                MountTargetConflictException.class,
                "MountTargetConflict",
                409,
                "not in the same VPC as existing mount targets");
        assertThat(mountTargets()).hasSize(1);
    }

    @Test
    void describeShowsTheZoneAndVpcOfTheSubnetAndAnAddressInIt() {
        create(SUBNET_1B);
        MountTargetDescription mt = mountTargets().get(0);
        assertThat(mt.availabilityZoneName()).isEqualTo("us-east-1b");
        assertThat(mt.availabilityZoneId()).isEqualTo("use1-az2");
        assertThat(mt.vpcId()).isEqualTo(STACK_VPC);
        assertThat(mt.subnetId()).isEqualTo(SUBNET_1B);
        assertThat(mt.ipAddress()).isEqualTo("10.0.16.4"); // the first four addresses are AWS's
    }

    @Test
    void withoutGroupsTheMountTargetGetsItsVpcsDefaultGroup() {
        String mt = create(SUBNET_1A);
        assertThat(groupsOf(mt)).containsExactly(STACK_DEFAULT_GROUP);
    }

    @Test
    void securityGroupsAreAtMostFiveAndMustExistInTheSubnetsVpc() {
        refused(
                () -> create(SUBNET_1A, GROUPS.toArray(String[]::new)),
                SecurityGroupLimitExceededException.class,
                "SecurityGroupLimitExceeded",
                400,
                "at most 5");
        refused(
                () -> create(SUBNET_1A, "sg-0123456789abcdef0"),
                SecurityGroupNotFoundException.class,
                "SecurityGroupNotFound",
                400,
                "sg-0123456789abcdef0");
        refused(
                () -> create(SUBNET_1A, GROUPS.get(0), OTHER_VPC_GROUP),
                SecurityGroupNotFoundException.class,
                "SecurityGroupNotFound",
                400,
                "belong to different networks");
        assertThat(mountTargets()).isEmpty();

        String mt = create(SUBNET_1A, GROUPS.subList(0, 5).toArray(String[]::new));
        assertThat(groupsOf(mt)).isEqualTo(GROUPS.subList(0, 5));
    }

    @Test
    void aGivenAddressMustBeAFreeAddressOfTheSubnet() {
        String other = sim.efs
                .createFileSystem(SimulatedEfsTest.fileSystem("token-2", "run-2"))
                .fileSystemId();
        sim.advance(SimulatedEfs.FILE_SYSTEM_CREATING);
        refused(
                () -> sim.efs.createMountTarget(at(SUBNET_1A, "10.0.16.10")),
                BadRequestException.class,
                "BadRequest",
                400,
                "not an address of subnet " + SUBNET_1A);
        refused(
                () -> sim.efs.createMountTarget(at(SUBNET_1A, "10.0.0.2")),
                BadRequestException.class,
                "BadRequest",
                400,
                "reserved");
        refused(
                () -> sim.efs.createMountTarget(at(SUBNET_1A, "10.0.300.1")),
                BadRequestException.class,
                "BadRequest",
                400,
                "not an IPv4 address");
        sim.efs.createMountTarget(at(SUBNET_1A, "10.0.0.10"));
        refused(
                () -> sim.efs.createMountTarget(at(SUBNET_1A, "10.0.0.10").toBuilder()
                        .fileSystemId(other)
                        .build()),
                IpAddressInUseException.class,
                "IpAddressInUse",
                409,
                "10.0.0.10");
        String auto = sim.efs
                .createMountTarget(r -> r.fileSystemId(other).subnetId(SUBNET_1A))
                .ipAddress();
        assertThat(auto).isEqualTo("10.0.0.4");
    }

    CreateMountTargetRequest at(String subnet, String ip) {
        return CreateMountTargetRequest.builder()
                .fileSystemId(fs)
                .subnetId(subnet)
                .ipAddress(ip)
                .build();
    }

    @Test
    void aOneZoneFileSystemTakesAMountTargetInItsZoneOnly() {
        String oneZone = sim.efs
                .createFileSystem(SimulatedEfsTest.fileSystem("token-oz", "run-oz").toBuilder()
                        .availabilityZoneName("us-east-1b")
                        .build())
                .fileSystemId();
        sim.advance(SimulatedEfs.FILE_SYSTEM_CREATING);
        refused(
                () -> sim.efs.createMountTarget(r -> r.fileSystemId(oneZone).subnetId(SUBNET_1A)),
                AvailabilityZonesMismatchException.class,
                "AvailabilityZonesMismatch",
                400,
                "us-east-1b");
        sim.efs.createMountTarget(r -> r.fileSystemId(oneZone).subnetId(SUBNET_1B));
    }

    @Test
    void securityGroupsChangeOnlyOnAnAvailableMountTargetAndByEfssRules() {
        String mt = create(SUBNET_1A, GROUPS.get(0));
        refused(
                () -> sim.efs.modifyMountTargetSecurityGroups(
                        r -> r.mountTargetId(mt).securityGroups(GROUPS.get(1))),
                IncorrectMountTargetStateException.class,
                "IncorrectMountTargetState",
                409,
                "creating");
        sim.advance(SimulatedEfs.MOUNT_TARGET_CREATING);

        sim.efs.modifyMountTargetSecurityGroups(r -> r.mountTargetId(mt).securityGroups(GROUPS.get(0), GROUPS.get(1)));
        assertThat(groupsOf(mt)).containsExactly(GROUPS.get(0), GROUPS.get(1));
        refused(
                () -> sim.efs.modifyMountTargetSecurityGroups(
                        r -> r.mountTargetId(mt).securityGroups(GROUPS)),
                SecurityGroupLimitExceededException.class,
                "SecurityGroupLimitExceeded",
                400,
                "at most 5");
        refused(
                () -> sim.efs.modifyMountTargetSecurityGroups(
                        r -> r.mountTargetId(mt).securityGroups("sg-0123456789abcdef0")),
                SecurityGroupNotFoundException.class,
                "SecurityGroupNotFound",
                400,
                "sg-0123456789abcdef0");
        refused(
                () -> sim.efs.modifyMountTargetSecurityGroups(
                        r -> r.mountTargetId(mt).securityGroups(OTHER_VPC_GROUP)),
                SecurityGroupNotFoundException.class,
                "SecurityGroupNotFound",
                400,
                "different networks");
        refused(
                () -> sim.efs.modifyMountTargetSecurityGroups(
                        r -> r.mountTargetId(mt).securityGroups(List.of())),
                BadRequestException.class,
                "BadRequest",
                400,
                "at least one");
        refused(
                () -> sim.efs.modifyMountTargetSecurityGroups(
                        r -> r.mountTargetId("fsmt-0123456789abcdef0").securityGroups(GROUPS.get(0))),
                MountTargetNotFoundException.class,
                "MountTargetNotFound",
                404,
                "fsmt-0123456789abcdef0");
        assertThat(groupsOf(mt)).as("a refused change changes nothing").containsExactly(GROUPS.get(0), GROUPS.get(1));

        sim.efs.deleteMountTarget(r -> r.mountTargetId(mt));
        refused(
                () -> groupsOf(mt),
                IncorrectMountTargetStateException.class,
                "IncorrectMountTargetState",
                409,
                "deleting");
        sim.advance(SimulatedEfs.DELETING);
        refused(() -> groupsOf(mt), MountTargetNotFoundException.class, "MountTargetNotFound", 404, mt);
        assertThat(sim.count("efs:ModifyMountTargetSecurityGroups")).isEqualTo(7);
    }

    @Test
    void aClustersSecurityGroupExistsInTheVpcOfItsSubnetsAndGuardsMountTargets() {
        sim.eks.createCluster(SimAccount.cluster("tp-run-1-eks", "token-1", "run-1").toBuilder()
                .resourcesVpcConfig(v -> v.subnetIds(SUBNET_1A, SUBNET_1B))
                .build());
        sim.advance(Duration.ofMinutes(15));
        String group = sim.eks
                .describeCluster(r -> r.name("tp-run-1-eks"))
                .cluster()
                .resourcesVpcConfig()
                .clusterSecurityGroupId();
        assertThat(sim.network.vpcOfSecurityGroup(group)).contains(STACK_VPC);

        String mt = create(SUBNET_1A, group);
        assertThat(groupsOf(mt)).containsExactly(group);
    }
}
