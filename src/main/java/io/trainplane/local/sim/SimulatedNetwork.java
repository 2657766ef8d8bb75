package io.trainplane.local.sim;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The simulated account's VPCs as the other services see them: subnets, each in one Availability
 * Zone with its CIDR block, and the security groups that exist in each VPC — the VPC's default
 * group, and the group EKS makes for each cluster ({@link SimulatedEks} registers it). One object is
 * shared by the services of an account, so that EFS checks a mount target's subnet and groups
 * against what exists. There is no EC2 API: the network is set up by code ({@link #stack()}, tests).
 */
public final class SimulatedNetwork {
    /** The stack's VPC: the subnets of {@code LocalCloud}'s settings are in it. */
    public static final String STACK_VPC = "vpc-0e5f1a2b3c4d5e6f7";

    public static final String STACK_DEFAULT_GROUP = "sg-0de1a0170c0ffee01";
    /** The stack's subnets, one per zone (us-east-1a, us-east-1b), as the settings list them. */
    public static final String SUBNET_1A = "subnet-0a1b2c3d4e5f60001";

    public static final String SUBNET_1B = "subnet-0a1b2c3d4e5f60002";
    /** Two more subnets of the stack's VPC: a second one in us-east-1a, and one in us-east-1c. */
    public static final String SUBNET_1A_SECOND = "subnet-0a1b2c3d4e5f60003";

    public static final String SUBNET_1C = "subnet-0a1b2c3d4e5f60004";

    /**
     * A subnet lives in exactly one Availability Zone and one VPC
     * (https://docs.aws.amazon.com/vpc/latest/userguide/configure-subnets.html: "each subnet must
     * reside entirely within one Availability Zone").
     */
    public record Subnet(String id, String vpcId, String zoneName, String zoneId, Cidr cidr) {}

    private final Map<String, Subnet> subnets = new LinkedHashMap<>();
    /** Security group → its VPC. */
    private final Map<String, String> groups = new LinkedHashMap<>();
    /** VPC → its default security group. */
    private final Map<String, String> defaultGroups = new LinkedHashMap<>();

    /** The stack's VPC and its four subnets. */
    public static SimulatedNetwork stack() {
        return new SimulatedNetwork()
                .addVpc(STACK_VPC, STACK_DEFAULT_GROUP)
                .addSubnet(SUBNET_1A, STACK_VPC, "us-east-1a", "10.0.0.0/20")
                .addSubnet(SUBNET_1B, STACK_VPC, "us-east-1b", "10.0.16.0/20")
                .addSubnet(SUBNET_1A_SECOND, STACK_VPC, "us-east-1a", "10.0.32.0/20")
                .addSubnet(SUBNET_1C, STACK_VPC, "us-east-1c", "10.0.48.0/20");
    }

    /**
     * A VPC with its default security group: every VPC has one, and a network interface made
     * without groups gets it (https://docs.aws.amazon.com/vpc/latest/userguide/default-security-group.html).
     */
    public synchronized SimulatedNetwork addVpc(String vpcId, String defaultGroupId) {
        defaultGroups.put(vpcId, defaultGroupId);
        groups.put(defaultGroupId, vpcId);
        return this;
    }

    /** A subnet of a VPC added before, in the zone {@code zoneName} ({@code us-east-1a}…). */
    public synchronized SimulatedNetwork addSubnet(String subnetId, String vpcId, String zoneName, String cidr) {
        if (!defaultGroups.containsKey(vpcId)) {
            throw new IllegalArgumentException("add VPC " + vpcId + " before its subnet " + subnetId);
        }
        subnets.put(subnetId, new Subnet(subnetId, vpcId, zoneName, zoneId(zoneName), Cidr.parse(cidr)));
        return this;
    }

    /** Zone ids map to names per account; in this account a → use1-az1, b → use1-az2, … */
    static String zoneId(String zoneName) {
        return "use1-az" + (zoneName.charAt(zoneName.length() - 1) - 'a' + 1);
    }

    public synchronized SimulatedNetwork addSecurityGroup(String groupId, String vpcId) {
        if (!defaultGroups.containsKey(vpcId)) {
            throw new IllegalArgumentException("add VPC " + vpcId + " before its security group " + groupId);
        }
        groups.put(groupId, vpcId);
        return this;
    }

    /**
     * The security group EKS made for a cluster, in the VPC of the cluster's subnets. More lenient
     * than AWS: a cluster whose subnets this network does not know (tests, clusters that exist
     * before any run) gets its group in the stack's VPC; and the group outlives the cluster, as on
     * AWS only while a network interface (a mount target's) still uses it.
     */
    public synchronized void addClusterSecurityGroup(String groupId, List<String> subnetIds) {
        String vpc = subnetIds.stream()
                .map(subnets::get)
                .filter(s -> s != null)
                .map(Subnet::vpcId)
                .findFirst()
                .orElse(STACK_VPC);
        groups.putIfAbsent(groupId, defaultGroups.containsKey(vpc) ? vpc : STACK_VPC);
    }

    public synchronized Optional<Subnet> subnet(String subnetId) {
        return Optional.ofNullable(subnetId == null ? null : subnets.get(subnetId));
    }

    public synchronized List<Subnet> subnets() {
        return List.copyOf(subnets.values());
    }

    /** The VPC a security group is in; empty when the group does not exist. */
    public synchronized Optional<String> vpcOfSecurityGroup(String groupId) {
        return Optional.ofNullable(groupId == null ? null : groups.get(groupId));
    }

    public synchronized String defaultSecurityGroup(String vpcId) {
        return defaultGroups.get(vpcId);
    }

    /** An IPv4 CIDR block: which addresses it holds, and which of them AWS keeps for itself. */
    public record Cidr(long base, int prefix) {
        static Cidr parse(String cidr) {
            String[] parts = cidr.split("/");
            return new Cidr(address(parts[0]), Integer.parseInt(parts[1]));
        }

        long size() {
            return 1L << (32 - prefix);
        }

        boolean contains(String ip) {
            long a = address(ip);
            return a >= base && a < base + size();
        }

        /**
         * The first four and the last address of a subnet are AWS's
         * (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_CreateSubnet.html: "Amazon
         * Web Services reserves both the first four and the last IPv4 address in each subnet's CIDR
         * block").
         */
        boolean reserved(String ip) {
            long a = address(ip);
            return a < base + 4 || a == base + size() - 1;
        }

        /** The {@code n}-th address of the block, from 0. */
        String host(long n) {
            long a = base + n;
            return (a >> 24 & 255) + "." + (a >> 16 & 255) + "." + (a >> 8 & 255) + "." + (a & 255);
        }

        /** An IPv4 address as a number; -1 when {@code ip} is not one. */
        static long address(String ip) {
            String[] octets = ip == null ? new String[0] : ip.split("\\.", -1);
            if (octets.length != 4) {
                return -1;
            }
            long a = 0;
            for (String octet : octets) {
                if (!octet.matches("\\d{1,3}") || Integer.parseInt(octet) > 255) {
                    return -1;
                }
                a = a << 8 | Integer.parseInt(octet);
            }
            return a;
        }
    }
}
