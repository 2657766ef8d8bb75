#!/usr/bin/env python3
"""Rewrites the EC2 instance catalog (src/main/resources/ec2/instance-types.json) from the EC2 APIs.

Instance facts come from ec2:DescribeInstanceTypes, the Regions that sell each type from
ec2:DescribeInstanceTypeOfferings (LocationType region) in every Region of the catalog. With
--prices REGION..., the instance prices of src/main/resources/prices/REGION.json are rewritten too:
on demand from the Price List (pricing:GetProducts, Linux, shared tenancy, no pre-installed
software), Spot as the median over the Region's Availability Zones of the last day's
ec2:DescribeSpotPriceHistory. It needs credentials allowed those four read-only actions:

    python3 scripts/refresh-ec2-catalog.py [--prices us-east-1 eu-west-1 ...]

--endpoint-url points EC2 at an AWS-compatible peer (the tests use moto_server); --out writes the
catalog elsewhere. The catalog covers the current accelerated types (whole NVIDIA GPUs; AWS
Trainium and Inferentia2) and the common CPU families below.
"""
import argparse
import datetime
import json
import os
import statistics
import sys

import boto3

CPU_FAMILIES = ["c5", "c5a", "c6i", "c7g", "c7i", "m5", "m6i", "m7g", "m7i", "r6i", "t3"]
NEURON_MODELS = {"Trainium", "Trainium2", "Inferentia2"}
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CATALOG = os.path.join(ROOT, "src/main/resources/ec2/instance-types.json")
SOURCE = ("ec2:DescribeInstanceTypes and ec2:DescribeInstanceTypeOfferings (LocationType region) in each Region;"
          " scripts/refresh-ec2-catalog.py rewrites this file from the APIs")


def wanted(t):
    """A current accelerated type with whole NVIDIA GPUs or Trainium/Inferentia2, or a common CPU family."""
    family = t["InstanceType"].split(".")[0]
    if family in CPU_FAMILIES:
        return True
    if not t.get("CurrentGeneration"):
        return False
    gpus = (t.get("GpuInfo") or {}).get("Gpus", [])
    if gpus:
        return all(g.get("Manufacturer") == "NVIDIA" and g.get("GpuPartitionSize", 1.0) >= 1.0 for g in gpus)
    neuron = (t.get("NeuronInfo") or {}).get("NeuronDevices", [])
    return bool(neuron) and all(n.get("Name") in NEURON_MODELS for n in neuron)


def fact(t):
    """The facts the catalog keeps of one DescribeInstanceTypes answer, in its field order."""
    n = t["NetworkInfo"]
    cards = n.get("NetworkCards", [])
    default = n.get("DefaultNetworkCardIndex", 0)
    card = next((c for c in cards if c["NetworkCardIndex"] == default), {"MaximumNetworkInterfaces": n["MaximumNetworkInterfaces"]})
    f = {"name": t["InstanceType"], "vcpus": t["VCpuInfo"]["DefaultVCpus"], "memoryMiB": t["MemoryInfo"]["SizeInMiB"],
         "architectures": t["ProcessorInfo"]["SupportedArchitectures"]}
    gpus = (t.get("GpuInfo") or {}).get("Gpus", [])
    if gpus:
        g = gpus[0]
        f["gpu"] = {"count": g["Count"], "manufacturer": g["Manufacturer"], "model": g["Name"],
                    "memoryMiB": g["MemoryInfo"]["SizeInMiB"]}
    neuron = (t.get("NeuronInfo") or {}).get("NeuronDevices", [])
    if neuron:
        d = neuron[0]
        f["neuron"] = {"count": d["Count"], "model": d["Name"], "cores": d["CoreInfo"]["Count"] * d["Count"],
                       "memoryMiB": d["MemoryInfo"]["SizeInMiB"]}
    if n.get("EfaSupported"):
        f["maxEfaInterfaces"] = n["EfaInfo"]["MaximumEfaInterfaces"]
    f["networkCards"] = len(cards) or 1
    f["interfacesOnDefaultCard"] = card["MaximumNetworkInterfaces"]
    f["ipv4PerInterface"] = n["Ipv4AddressesPerInterface"]
    f["network"] = n["NetworkPerformance"]
    f["usageClasses"] = t["SupportedUsageClasses"]
    return f


def client(service, region, endpoint):
    return boto3.client(service, region_name=region, endpoint_url=endpoint)


def instance_types(ec2):
    found = []
    for page in ec2.get_paginator("describe_instance_types").paginate():
        found += [t for t in page["InstanceTypes"] if wanted(t)]
    return sorted(found, key=lambda t: t["InstanceType"])


def offered(ec2, names):
    sold = set()
    for page in ec2.get_paginator("describe_instance_type_offerings").paginate(LocationType="region"):
        sold |= {o["InstanceType"] for o in page["InstanceTypeOfferings"]}
    return sorted(sold & names)


def render(date, facts, regions):
    """The catalog document, one type or Region a line, as committed."""
    lines = ["{", '  "date": %s,' % json.dumps(date), '  "source": %s,' % json.dumps(SOURCE), '  "instanceTypes": [']
    lines.append(",\n".join("    " + json.dumps(f, separators=(", ", ": ")) for f in facts))
    lines += ["  ],", '  "regions": {']
    lines.append(",\n".join('    "%s": %s' % (r, json.dumps(v)) for r, v in sorted(regions.items())))
    lines += ["  }", "}"]
    return "\n".join(lines) + "\n"


def on_demand(pricing, region, name):
    """USD an hour on demand (Linux, shared tenancy, no pre-installed software), or None."""
    filters = [("regionCode", region), ("instanceType", name), ("operatingSystem", "Linux"), ("tenancy", "Shared"),
               ("preInstalledSw", "NA"), ("capacitystatus", "Used")]
    answer = pricing.get_products(ServiceCode="AmazonEC2", Filters=[
        {"Type": "TERM_MATCH", "Field": f, "Value": v} for f, v in filters])
    for item in answer["PriceList"]:
        for term in json.loads(item)["terms"].get("OnDemand", {}).values():
            for dimension in term["priceDimensions"].values():
                usd = float(dimension["pricePerUnit"]["USD"])
                if usd > 0:
                    return usd
    return None


def spot(ec2, name, since):
    """The median over Availability Zones of each zone's latest Linux Spot price since {since}, or None."""
    latest = {}
    pages = ec2.get_paginator("describe_spot_price_history").paginate(
        InstanceTypes=[name], ProductDescriptions=["Linux/UNIX"], StartTime=since)
    for page in pages:
        for p in page["SpotPriceHistory"]:
            zone = p["AvailabilityZone"]
            if zone not in latest or p["Timestamp"] > latest[zone][0]:
                latest[zone] = (p["Timestamp"], float(p["SpotPrice"]))
    return round(statistics.median(v for _, v in latest.values()), 4) if latest else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--regions", nargs="*", help="Regions whose offerings to read (default: the catalog's)")
    parser.add_argument("--prices", nargs="*", default=[], help="Regions whose price files to rewrite")
    parser.add_argument("--endpoint-url", help="an AWS-compatible endpoint for EC2 (tests)")
    parser.add_argument("--out", default=CATALOG, help="where to write the catalog")
    parser.add_argument("--date", default=datetime.date.today().isoformat(), help="the catalog's day")
    args = parser.parse_args()
    with open(CATALOG) as f:
        regions = args.regions or sorted(json.load(f)["regions"])
    types = instance_types(client("ec2", "us-east-1", args.endpoint_url))
    names = {t["InstanceType"] for t in types}
    offerings = {r: offered(client("ec2", r, args.endpoint_url), names) for r in regions}
    with open(args.out, "w") as f:
        f.write(render(args.date, [fact(t) for t in types], offerings))
    print("%d instance types, %d Regions -> %s" % (len(types), len(offerings), args.out))
    # The Price List API answers in us-east-1 (and a few others) for every Region.
    pricing = client("pricing", "us-east-1", None) if args.prices else None
    since = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=1)
    for region in args.prices:
        path = os.path.join(ROOT, "src/main/resources/prices/%s.json" % region)
        # A Region priced for the first time starts from us-east-1's file: its services' prices say so.
        with open(path if os.path.exists(path) else os.path.join(ROOT, "src/main/resources/prices/us-east-1.json")) as f:
            table = json.load(f)
        if table["region"] != region:
            table["region"] = region
            table["servicesSource"] = ("The prices of the services other than EC2 are US East (N. Virginia)'s:"
                                       " this Region's own are not in the snapshot yet")
        ec2 = client("ec2", region, args.endpoint_url)
        table["date"] = table["spotDate"] = args.date
        table["source"] = "AWS Price List (pricing:GetProducts: Linux, shared tenancy), by scripts/refresh-ec2-catalog.py"
        table["spotSource"] = ("ec2:DescribeSpotPriceHistory (Linux/UNIX): the median over the Region's Availability Zones"
                               " of each zone's latest price on spotDate; not a quote")
        table["instances"] = {}
        table["spotInstances"] = {}
        for name in offerings.get(region, []):
            usd = on_demand(pricing, region, name)
            if usd is not None:
                table["instances"][name] = usd
            usd = spot(ec2, name, since)
            if usd is not None:
                table["spotInstances"][name] = usd
        with open(path, "w") as f:
            json.dump(table, f, indent=2)
            f.write("\n")
        print("%s: %d on-demand and %d Spot prices -> %s" % (region, len(table["instances"]), len(table["spotInstances"]), path))


if __name__ == "__main__":
    sys.exit(main())
