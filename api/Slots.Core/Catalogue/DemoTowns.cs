namespace Slots.Catalogue;

/// <summary>A real Slovak town for demo places: its kraj, the postal code (PSČ) of its main post office, and whether it has a hospital.</summary>
public sealed record DemoTown(string Name, string Region, string PostalCode, bool Hospital);

/// <summary>
/// District towns of all eight kraje, so demo places sit where a Slovak reader expects them. Only
/// towns that really have a general hospital are marked so: a "Nemocnica Senec" would give the demo away.
/// </summary>
public static class DemoTowns
{
    public static readonly IReadOnlyList<DemoTown> All =
    [
        new("Bratislava", "Bratislavský kraj", "811 01", Hospital: false), // its hospitals go by their own names
        new("Malacky", "Bratislavský kraj", "901 01", Hospital: true),
        new("Pezinok", "Bratislavský kraj", "902 01", Hospital: false),
        new("Senec", "Bratislavský kraj", "903 01", Hospital: false),
        new("Stupava", "Bratislavský kraj", "900 31", Hospital: false),

        new("Trnava", "Trnavský kraj", "917 01", Hospital: true),
        new("Piešťany", "Trnavský kraj", "921 01", Hospital: true),
        new("Hlohovec", "Trnavský kraj", "920 01", Hospital: false),
        new("Galanta", "Trnavský kraj", "924 01", Hospital: true),
        new("Dunajská Streda", "Trnavský kraj", "929 01", Hospital: true),
        new("Senica", "Trnavský kraj", "905 01", Hospital: true),
        new("Skalica", "Trnavský kraj", "909 01", Hospital: true),

        new("Trenčín", "Trenčiansky kraj", "911 01", Hospital: true),
        new("Prievidza", "Trenčiansky kraj", "971 01", Hospital: false), // its hospital is in Bojnice
        new("Považská Bystrica", "Trenčiansky kraj", "017 01", Hospital: true),
        new("Partizánske", "Trenčiansky kraj", "958 01", Hospital: true),
        new("Nové Mesto nad Váhom", "Trenčiansky kraj", "915 01", Hospital: true),
        new("Púchov", "Trenčiansky kraj", "020 01", Hospital: false),
        new("Bánovce nad Bebravou", "Trenčiansky kraj", "957 01", Hospital: true),
        new("Myjava", "Trenčiansky kraj", "907 01", Hospital: true),

        new("Nitra", "Nitriansky kraj", "949 01", Hospital: true),
        new("Nové Zámky", "Nitriansky kraj", "940 01", Hospital: true),
        new("Komárno", "Nitriansky kraj", "945 01", Hospital: true),
        new("Levice", "Nitriansky kraj", "934 01", Hospital: true),
        new("Topoľčany", "Nitriansky kraj", "955 01", Hospital: true),
        new("Šaľa", "Nitriansky kraj", "927 01", Hospital: false),
        new("Zlaté Moravce", "Nitriansky kraj", "953 01", Hospital: true),

        new("Žilina", "Žilinský kraj", "010 01", Hospital: true),
        new("Martin", "Žilinský kraj", "036 01", Hospital: true),
        new("Ružomberok", "Žilinský kraj", "034 01", Hospital: true),
        new("Liptovský Mikuláš", "Žilinský kraj", "031 01", Hospital: true),
        new("Čadca", "Žilinský kraj", "022 01", Hospital: true),
        new("Dolný Kubín", "Žilinský kraj", "026 01", Hospital: true),
        new("Bytča", "Žilinský kraj", "014 01", Hospital: false),

        new("Banská Bystrica", "Banskobystrický kraj", "974 01", Hospital: true),
        new("Zvolen", "Banskobystrický kraj", "960 01", Hospital: true),
        new("Lučenec", "Banskobystrický kraj", "984 01", Hospital: true),
        new("Rimavská Sobota", "Banskobystrický kraj", "979 01", Hospital: true),
        new("Brezno", "Banskobystrický kraj", "977 01", Hospital: true),
        new("Žiar nad Hronom", "Banskobystrický kraj", "965 01", Hospital: true),
        new("Veľký Krtíš", "Banskobystrický kraj", "990 01", Hospital: true),
        new("Banská Štiavnica", "Banskobystrický kraj", "969 01", Hospital: true),

        new("Prešov", "Prešovský kraj", "080 01", Hospital: true),
        new("Poprad", "Prešovský kraj", "058 01", Hospital: true),
        new("Bardejov", "Prešovský kraj", "085 01", Hospital: true),
        new("Humenné", "Prešovský kraj", "066 01", Hospital: true),
        new("Vranov nad Topľou", "Prešovský kraj", "093 01", Hospital: true),
        new("Kežmarok", "Prešovský kraj", "060 01", Hospital: true),
        new("Stará Ľubovňa", "Prešovský kraj", "064 01", Hospital: true),
        new("Svidník", "Prešovský kraj", "089 01", Hospital: true),
        new("Snina", "Prešovský kraj", "069 01", Hospital: true),

        new("Košice", "Košický kraj", "040 01", Hospital: false), // as Bratislava
        new("Michalovce", "Košický kraj", "071 01", Hospital: true),
        new("Spišská Nová Ves", "Košický kraj", "052 01", Hospital: true),
        new("Trebišov", "Košický kraj", "075 01", Hospital: true),
        new("Rožňava", "Košický kraj", "048 01", Hospital: true),
        new("Moldava nad Bodvou", "Košický kraj", "045 01", Hospital: false),
        new("Sečovce", "Košický kraj", "078 01", Hospital: false),
    ];
}
