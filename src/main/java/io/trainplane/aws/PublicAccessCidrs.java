package io.trainplane.aws;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What EKS accepts in a cluster's {@code resourcesVpcConfig.publicAccessCidrs}: the blocks that may
 * reach the public API endpoint. The stack checks its setting with these rules at startup, and the
 * simulated EKS refuses a CreateCluster that breaks them.
 *
 * <ul>
 *   <li>At most {@value #MAX} blocks, a quota that cannot be raised ("Public endpoint access CIDR
 *       ranges per cluster": 40, not adjustable):
 *       https://docs.aws.amazon.com/eks/latest/userguide/service-quotas.html</li>
 *   <li>IPv4 blocks only: "You can't add IPv6 CIDR blocks to IPv4 clusters" (the run's clusters
 *       are IPv4):
 *       https://docs.aws.amazon.com/eks/latest/APIReference/API_VpcConfigRequest.html</li>
 *   <li>"The block cannot include reserved addresses":
 *       https://docs.aws.amazon.com/eks/latest/userguide/config-cluster-endpoint.html. Refused
 *       here: a block inside a private, shared, loopback, link-local, multicast or reserved range.
 *       More lenient than EKS may be: the documentation ranges (the page's own example is
 *       203.0.113.5/32) and wide blocks that merely contain a reserved range are accepted, and
 *       0.0.0.0/0 is EKS's own default.</li>
 * </ul>
 * A block must name its network (no host bits set: {@code 203.0.113.0/24}, not {@code 203.0.113.7/24}).
 */
public final class PublicAccessCidrs {
    public static final int MAX = 40;

    private static final Pattern IPV4_CIDR =
            Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})/(\\d{1,2})");
    /** Reserved IPv4 ranges (RFC 6890 and the IANA special-purpose registry), documentation ranges left out. */
    private static final List<String> RESERVED = List.of(
            "0.0.0.0/8",
            "10.0.0.0/8",
            "100.64.0.0/10",
            "127.0.0.0/8",
            "169.254.0.0/16",
            "172.16.0.0/12",
            "192.0.0.0/24",
            "192.88.99.0/24",
            "192.168.0.0/16",
            "198.18.0.0/15",
            "224.0.0.0/4",
            "240.0.0.0/4");

    private PublicAccessCidrs() {}

    /** One line per problem of {@code cidrs}; empty when EKS accepts them. */
    public static List<String> problems(List<String> cidrs) {
        List<String> problems = new ArrayList<>();
        if (cidrs.size() > MAX) {
            problems.add(cidrs.size() + " CIDR blocks, more than EKS's " + MAX + " per cluster");
        }
        for (String cidr : cidrs) {
            String problem = problem(cidr);
            if (problem != null) {
                problems.add(problem);
            }
        }
        return problems;
    }

    /** The blocks of {@code cidrs} EKS refuses, in their order. */
    public static List<String> invalid(List<String> cidrs) {
        return cidrs.stream().filter(c -> problem(c) != null).toList();
    }

    /** What is wrong with one block, or null. */
    static String problem(String cidr) {
        long[] block = parse(cidr);
        if (block == null) {
            return "'" + cidr
                    + "' is not an IPv4 CIDR block such as 203.0.113.0/24 (EKS takes no IPv6 block for an IPv4 cluster)";
        }
        long mask = mask((int) block[1]);
        if ((block[0] & ~mask & 0xFFFFFFFFL) != 0) {
            return "'" + cidr + "' has host bits set: write its network, " + format(block[0] & mask) + "/" + block[1];
        }
        if (block[1] == 0) {
            return null;
        }
        for (String reserved : RESERVED) {
            long[] range = parse(reserved);
            if (block[1] >= range[1] && (block[0] & mask((int) range[1])) == range[0]) {
                return "'" + cidr + "' is inside the reserved range " + reserved + " (EKS refuses reserved addresses;"
                        + " nodes reach the API through the private endpoint)";
            }
        }
        return null;
    }

    /** {address, prefix length}, or null when {@code cidr} is no IPv4 block. */
    private static long[] parse(String cidr) {
        Matcher m = cidr == null ? null : IPV4_CIDR.matcher(cidr);
        if (m == null || !m.matches()) {
            return null;
        }
        long address = 0;
        for (int i = 1; i <= 4; i++) {
            int octet = Integer.parseInt(m.group(i));
            if (octet > 255) {
                return null;
            }
            address = (address << 8) | octet;
        }
        int prefix = Integer.parseInt(m.group(5));
        return prefix > 32 ? null : new long[] {address, prefix};
    }

    private static long mask(int prefix) {
        return prefix == 0 ? 0 : (0xFFFFFFFFL << (32 - prefix)) & 0xFFFFFFFFL;
    }

    private static String format(long address) {
        return (address >> 24 & 255) + "." + (address >> 16 & 255) + "." + (address >> 8 & 255) + "." + (address & 255);
    }
}
