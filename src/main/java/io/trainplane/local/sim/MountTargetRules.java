package io.trainplane.local.sim;

import io.trainplane.local.sim.EfsRecords.FileSystemRecord;
import io.trainplane.local.sim.EfsRecords.MountTargetRecord;
import io.trainplane.local.sim.SimulatedNetwork.Cidr;
import io.trainplane.local.sim.SimulatedNetwork.Subnet;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.efs.model.CreateMountTargetRequest;

/**
 * What EFS checks before it makes a mount target or changes its security groups, against the
 * account's {@link SimulatedNetwork}. Each rule cites the page it comes from; the order of the
 * checks (EFS's own first, then the network interface's) is the twin's choice, EFS documents none.
 */
final class MountTargetRules {
    /**
     * A quota that cannot be changed (https://docs.aws.amazon.com/efs/latest/ug/limits.html,
     * "Number of security groups for each mount target": 5); SecurityGroupLimitExceeded is
     * "Returned if the size of SecurityGroups specified in the request is greater than five"
     * (https://docs.aws.amazon.com/efs/latest/ug/API_CreateMountTarget.html).
     */
    static final int SECURITY_GROUPS_PER_MOUNT_TARGET = 5;

    /** Where a new mount target goes: its subnet, the groups of its interface, its address. */
    record Placement(Subnet subnet, List<String> securityGroups, String ipAddress) {}

    private final SimulatedNetwork network;
    private final EfsErrors errors;

    MountTargetRules(SimulatedNetwork network, EfsErrors errors) {
        this.network = network;
        this.errors = errors;
    }

    /**
     * The rules of CreateMountTarget (https://docs.aws.amazon.com/efs/latest/ug/API_CreateMountTarget.html):
     * the subnet must exist; "you can create mount targets for a file system in only one VPC, and
     * there can be only one mount target per Availability Zone" (also
     * https://docs.aws.amazon.com/efs/latest/ug/manage-fs-access-create-delete-mount-targets.html:
     * "If the VPC has multiple subnets in an Availability Zone, you can create a mount target in
     * only one of those subnets"); a mount target being deleted still holds its zone.
     *
     * @param ofFileSystem the file system's mount targets; {@code all}: every mount target of the account
     */
    Placement place(
            FileSystemRecord fs,
            CreateMountTargetRequest request,
            List<MountTargetRecord> ofFileSystem,
            Collection<MountTargetRecord> all) {
        Subnet subnet = network.subnet(request.subnetId()).orElseThrow(() -> errors.subnetNotFound(request.subnetId()));
        // "For One Zone file systems, use the subnet that is associated with the file system's Availability Zone."
        String zone = fs.request.availabilityZoneName();
        if (zone != null && !zone.equals(subnet.zoneName())) {
            throw errors.zonesMismatch(subnet.id(), zone);
        }
        for (MountTargetRecord mt : ofFileSystem) {
            if (!mt.subnet.vpcId().equals(subnet.vpcId())) {
                throw errors.mountTargetInOtherVpc();
            }
        }
        for (MountTargetRecord mt : ofFileSystem) {
            if (mt.subnet.zoneName().equals(subnet.zoneName())) {
                throw errors.mountTargetInZone();
            }
        }
        // "If the request provides SecurityGroups, this network interface is associated with those
        // security groups. Otherwise, it belongs to the default security group for the subnet's VPC."
        List<String> groups =
                request.hasSecurityGroups() && !request.securityGroups().isEmpty()
                        ? securityGroups(request.securityGroups(), subnet.vpcId())
                        : List.of(network.defaultSecurityGroup(subnet.vpcId()));
        Set<String> taken = all.stream()
                .filter(mt -> mt.subnet.id().equals(subnet.id()))
                .map(mt -> mt.ipAddress)
                .collect(Collectors.toSet());
        String ip = request.ipAddress() != null
                ? requestedAddress(request.ipAddress(), subnet, taken)
                : freeAddress(subnet, taken);
        return new Placement(subnet, groups, ip);
    }

    /**
     * Security groups for a mount target in {@code vpcId}: at most five, each existing and in that
     * VPC — SecurityGroupNotFound is "Returned if one of the specified security groups doesn't
     * exist in the subnet's VPC" (https://docs.aws.amazon.com/efs/latest/ug/API_CreateMountTarget.html,
     * the same for https://docs.aws.amazon.com/efs/latest/ug/API_ModifyMountTargetSecurityGroups.html).
     */
    List<String> securityGroups(List<String> requested, String vpcId) {
        if (requested.size() > SECURITY_GROUPS_PER_MOUNT_TARGET) {
            throw errors.securityGroupLimit(requested.size(), SECURITY_GROUPS_PER_MOUNT_TARGET);
        }
        for (String group : requested) {
            String vpc = network.vpcOfSecurityGroup(group).orElseThrow(() -> errors.securityGroupNotFound(group));
            if (!vpc.equals(vpcId)) {
                throw errors.securityGroupInOtherVpc();
            }
        }
        return List.copyOf(requested.stream().distinct().toList());
    }

    /**
     * IpAddress: "Valid IPv4 address within the address range of the specified subnet"; IpAddressInUse:
     * "Returned if the request specified an IpAddress that is already in use in the subnet"
     * (https://docs.aws.amazon.com/efs/latest/ug/API_CreateMountTarget.html).
     */
    private String requestedAddress(String ip, Subnet subnet, Set<String> taken) {
        if (Cidr.address(ip) < 0) {
            throw errors.badRequest("IpAddress '" + ip + "' is not an IPv4 address");
        }
        if (!subnet.cidr().contains(ip) || subnet.cidr().reserved(ip)) {
            throw errors.badRequest(
                    "IpAddress " + ip + " is not an address of subnet " + subnet.id() + " that can be assigned"
                            + " (its CIDR block is " + subnet.cidr().host(0) + "/"
                            + subnet.cidr().prefix()
                            + "; the first four and the last address are reserved)");
        }
        if (taken.contains(ip)) {
            throw errors.ipAddressInUse(ip, subnet.id());
        }
        return ip;
    }

    /** "Amazon EFS assigns a free address in the subnet": here the lowest one that is not reserved. */
    private String freeAddress(Subnet subnet, Set<String> taken) {
        for (long n = 4; n < subnet.cidr().size() - 1; n++) {
            String ip = subnet.cidr().host(n);
            if (!taken.contains(ip)) {
                return ip;
            }
        }
        throw errors.noFreeAddresses(subnet.id());
    }
}
