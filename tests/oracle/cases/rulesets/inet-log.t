# every syslog log flavour nfbpfd runs: prefixes, levels, flags
nft -c -f @FILE
nft -f @FILE
