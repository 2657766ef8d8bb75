package io.trainplane.local.sim;

import java.util.ArrayList;
import java.util.List;

/**
 * What the simulated EKS accepts in {@code resourcesVpcConfig.publicAccessCidrs}, by its own reading
 * of EKS's documentation:
 *
 * <ul>
 *   <li>"Public endpoint access CIDR ranges per cluster": 40, not adjustable
 *       (https://docs.aws.amazon.com/eks/latest/userguide/service-quotas.html).</li>
 *   <li>IPv4 blocks for an IPv4 cluster (https://docs.aws.amazon.com/eks/latest/APIReference/API_VpcConfigRequest.html),
 *       written as their network (no host bits set).</li>
 *   <li>"The block cannot include reserved addresses"
 *       (https://docs.aws.amazon.com/eks/latest/userguide/config-cluster-endpoint.html): a block
 *       inside one of IANA's IPv4 special-purpose ranges
 *       (https://www.iana.org/assignments/iana-ipv4-special-registry/) that is not globally
 *       reachable, the documentation ranges aside (the page's own example is 203.0.113.5/32);
 *       0.0.0.0/0 is EKS's default.</li>
 * </ul>
 */
final class EksPublicAccessCidrs {
    /** The quota on blocks per cluster. */
    static final int QUOTA = 40;

    /** {network, prefix length} of IANA's special-purpose IPv4 ranges EKS refuses. */
    private static final List<long[]> RESERVED = List.of(
            block(0, 0, 0, 0, 8), // "This network"
            block(10, 0, 0, 0, 8), // private-use, RFC 1918
            block(100, 64, 0, 0, 10), // shared address space, RFC 6598
            block(127, 0, 0, 0, 8), // loopback
            block(169, 254, 0, 0, 16), // link local
            block(172, 16, 0, 0, 12), // private-use
            block(192, 0, 0, 0, 24), // IETF protocol assignments
            block(192, 88, 99, 0, 24), // deprecated 6to4 relay anycast
            block(192, 168, 0, 0, 16), // private-use
            block(198, 18, 0, 0, 15), // benchmarking
            block(224, 0, 0, 0, 4), // multicast
            block(240, 0, 0, 0, 4)); // reserved, and the limited broadcast address

    private EksPublicAccessCidrs() {}

    /** The blocks EKS refuses, in their order. */
    static List<String> refused(List<String> cidrs) {
        List<String> refused = new ArrayList<>();
        for (String cidr : cidrs) {
            if (!accepted(cidr)) {
                refused.add(cidr);
            }
        }
        return refused;
    }

    static boolean accepted(String cidr) {
        long[] b = parse(cidr);
        if (b == null || (b[0] & ~netmask((int) b[1])) != 0) {
            return false;
        }
        return b[1] == 0 || RESERVED.stream().noneMatch(r -> b[1] >= r[1] && (b[0] & netmask((int) r[1])) == r[0]);
    }

    /** {address, prefix}, or null for anything but an IPv4 CIDR block. */
    private static long[] parse(String cidr) {
        if (cidr == null) {
            return null;
        }
        String[] parts = cidr.split("/", -1);
        String[] octets = parts[0].split("\\.", -1);
        if (parts.length != 2 || octets.length != 4) {
            return null;
        }
        try {
            long address = 0;
            for (String octet : octets) {
                int value = decimal(octet, 3);
                if (value > 255) {
                    return null;
                }
                address = address << 8 | value;
            }
            int prefix = decimal(parts[1], 2);
            return prefix > 32 ? null : new long[] {address, prefix};
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static int decimal(String digits, int most) {
        if (digits.isEmpty() || digits.length() > most || !digits.chars().allMatch(Character::isDigit)) {
            throw new NumberFormatException(digits);
        }
        return Integer.parseInt(digits);
    }

    private static long netmask(int prefix) {
        return prefix == 0 ? 0 : 0xFFFFFFFFL << (32 - prefix) & 0xFFFFFFFFL;
    }

    private static long[] block(int a, int b, int c, int d, int prefix) {
        return new long[] {(long) a << 24 | b << 16 | c << 8 | d, prefix};
    }
}
