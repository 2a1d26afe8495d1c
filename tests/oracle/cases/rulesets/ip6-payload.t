# ip6 header and icmpv6 matches
nft -c -f @FILE
nft -f @FILE
