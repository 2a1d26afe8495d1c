# iptables-nft/ip6tables-nft: matches sent as xt that nfbpfd translates (conntrack revision 3 beyond --ctstate, connmark, connlabel, helper, connbytes, statistic, quota, time, cpu, ecn, tcpmss, dccp, cgroup, mh, realm): listings, -save and the dataplane accept them
iptables-nft -A INPUT -m conntrack --ctstate NEW --ctproto tcp --ctorigdstport 22 -j ACCEPT
iptables-nft -A INPUT -m conntrack --ctorigsrc 10.0.0.0/8 ! --ctorigdst 10.0.0.1 -j DROP
iptables-nft -A INPUT -m conntrack --ctreplsrc 192.168.0.0/16 --ctrepldst 192.168.1.1/32 -j ACCEPT
iptables-nft -A INPUT -m conntrack --ctstatus ASSURED,SEEN_REPLY --ctdir ORIGINAL -j ACCEPT
iptables-nft -A INPUT -m conntrack ! --ctstatus CONFIRMED --ctdir REPLY -j DROP
iptables-nft -A INPUT -m conntrack --ctexpire 10:3600 -j ACCEPT
iptables-nft -A INPUT -m conntrack ! --ctexpire 5 -j ACCEPT
iptables-nft -A INPUT -m conntrack --ctproto udp --ctorigsrcport 1024:65535 ! --ctrepldstport 53 -j ACCEPT
iptables-nft -A INPUT -m conntrack ! --ctproto icmp --ctreplsrcport 80 -j ACCEPT
iptables-nft -A INPUT -m connmark --mark 0x10/0xf0 -j ACCEPT
iptables-nft -A INPUT -m connmark ! --mark 7 -j DROP
iptables-nft -A INPUT -m connlabel --label 5 -j ACCEPT
iptables-nft -A INPUT -m connlabel ! --label 127 -j ACCEPT
iptables-nft -A INPUT -m helper --helper ftp -j ACCEPT
iptables-nft -A INPUT -m helper ! --helper sip -j ACCEPT
iptables-nft -A INPUT -m connbytes --connbytes 10:1000 --connbytes-dir both --connbytes-mode bytes -j ACCEPT
iptables-nft -A INPUT -m connbytes ! --connbytes 5 --connbytes-dir reply --connbytes-mode packets -j DROP
iptables-nft -A INPUT -m connbytes --connbytes 100:200 --connbytes-dir original --connbytes-mode avgpkt -j ACCEPT
iptables-nft -S
iptables-nft -L -n -v
iptables-nft-save
ip6tables-nft -A INPUT -m conntrack --ctorigsrc 2001:db8::/32 --ctstate NEW,ESTABLISHED -j ACCEPT
ip6tables-nft -A INPUT -m conntrack ! --ctrepldst 2001:db8::1 --ctproto ipv6-icmp -j DROP
ip6tables-nft -A INPUT -m connmark --mark 1 -m connbytes --connbytes 1:3 --connbytes-dir original --connbytes-mode packets -j ACCEPT
ip6tables-nft -A INPUT -m helper --helper ftp -m connlabel --label 2 -j ACCEPT
ip6tables-nft -S
ip6tables-nft-save
iptables-nft -D INPUT -m connlabel --label 5 -j ACCEPT
iptables-nft -R INPUT 1 -m conntrack --ctstate ESTABLISHED --ctdir REPLY -j ACCEPT
iptables-nft -S
nft list ruleset
iptables-nft -A OUTPUT -m statistic --mode nth --every 3 --packet 1 -j ACCEPT
iptables-nft -A OUTPUT -m statistic --mode random --probability 0.25 -j DROP
iptables-nft -A OUTPUT -m statistic --mode random ! --probability 0.5 -j ACCEPT
iptables-nft -A OUTPUT -m quota --quota 1000000 -j ACCEPT
iptables-nft -A OUTPUT -m quota ! --quota 50 -j DROP
iptables-nft -A OUTPUT -m time --timestart 08:00 --timestop 17:00 --weekdays Mon,Tue,Wed,Thu,Fri -j ACCEPT
iptables-nft -A OUTPUT -m time --datestart 2020-01-01T00:00:00 --datestop 2030-12-31 --kerneltz -j ACCEPT
iptables-nft -A OUTPUT -m time --timestart 22:00 --timestop 04:00 --contiguous --monthdays 1,15 -j DROP
iptables-nft -A OUTPUT -m cpu --cpu 1 -j ACCEPT
iptables-nft -A OUTPUT -m cpu ! --cpu 0 -j DROP
iptables-nft -S OUTPUT
iptables-nft -L OUTPUT -n -v
iptables-nft-save
ip6tables-nft -A OUTPUT -m statistic --mode nth --every 2 --packet 0 -m quota --quota 4096 -j ACCEPT
ip6tables-nft -A OUTPUT -m time --weekdays Sat,Sun -m cpu --cpu 0 -j DROP
ip6tables-nft-save
nft list ruleset
iptables-nft -A INPUT -p tcp -m ecn --ecn-tcp-cwr ! --ecn-tcp-ece -j DROP
iptables-nft -A INPUT -p tcp -m ecn --ecn-ip-ect 3 -j ACCEPT
iptables-nft -A INPUT -p tcp -m tcpmss --mss 536:1460 -j ACCEPT
iptables-nft -A INPUT -p tcp -m tcpmss ! --mss 1400 -j DROP
iptables-nft -A INPUT -p dccp -m dccp --sport 1000:2000 --dccp-types REQUEST,DATA -j ACCEPT
iptables-nft -A OUTPUT -m cgroup --cgroup 0x100001 -j ACCEPT
iptables-nft -A OUTPUT -m cgroup ! --cgroup 7 -j DROP
iptables-nft -A OUTPUT -m realm --realm 0x10/0xf0 -j ACCEPT
iptables-nft -A FORWARD -m realm ! --realm 3 -j DROP
ip6tables-nft -A INPUT -p mh -m mh --mh-type binding-update -j ACCEPT
ip6tables-nft -A INPUT -p mh -m mh ! --mh-type 1:4 -j DROP
ip6tables-nft -A INPUT -p tcp -m ecn ! --ecn-ip-ect 1 -m tcpmss --mss 1220 -j ACCEPT
iptables-nft-save
ip6tables-nft-save
nft list ruleset
