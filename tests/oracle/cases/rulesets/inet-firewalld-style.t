# firewalld 1.x style ruleset: zones, policy chains, nat chains without translations, the IPv6 rp filter
nft -c -f @FILE
nft -f @FILE
