# typical workstation firewall in the inet family
nft -c -f @FILE
nft -f @FILE
