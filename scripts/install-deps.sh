#!/bin/sh
# Install the build and test dependencies of nfbpf on Debian 12 (as root).
set -e
apt-get update -q
apt-get install -y -q --no-install-recommends \
	build-essential autoconf automake libtool pkg-config \
	libmnl-dev libnftnl-dev libnftables-dev libbpf-dev libelf-dev zlib1g-dev \
	libcriterion-dev nftables iptables iproute2 jq \
	python3 python3-nftables bpftool procps clang libclang-rt-14-dev
