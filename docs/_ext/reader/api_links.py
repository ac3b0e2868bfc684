"""Link every API entry to the official documentation of the same object.

Each ``py:function``/``py:class``/``py:method``/``py:attribute``/``py:data``
signature gets a link to the official PyTorch, NumPy or Python page of that
object, worked out from its full dotted name by ``official_url``. The build
stays offline: the URLs follow the layout of the official sites (no inventory
is downloaded). An object the rules cannot place is reported as a warning, so
a new kind of entry cannot go out without a link.
"""

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.util import logging

logger = logging.getLogger(__name__)

PYTORCH = "https://docs.pytorch.org/docs/stable/"
NUMPY = "https://numpy.org/doc/stable/reference/generated/"
PYTHON = "https://docs.python.org/3/library/"
TORCHVISION = "https://docs.pytorch.org/vision/stable/"

# Objects documented on a shared page rather than a page of their own.
EXACT = {
    "torch.Tensor": PYTORCH + "tensors.html#torch.Tensor",
    "torch.Size": PYTORCH + "size.html#torch.Size",
    "torch.device": PYTORCH + "tensor_attributes.html#torch.device",
    "torch.dtype": PYTORCH + "tensor_attributes.html#torch.dtype",
    # Tensor attributes without a generated page of their own (docs/source/tensors.rst lists the ones with).
    "torch.Tensor.data": PYTORCH + "tensors.html#torch.Tensor",
    "torch.Tensor.dtype": PYTORCH + "tensor_attributes.html#torch.dtype",
    "torch.Tensor.grad_fn": PYTORCH + "notes/autograd.html",
    "torch.Tensor.T": PYTORCH + "tensors.html#torch.Tensor.T",
    "torch.Tensor.mT": PYTORCH + "tensors.html#torch.Tensor.mT",
    "torch.autograd.Variable": PYTORCH + "autograd.html#variable-deprecated",
    "torch.nn.Parameter": PYTORCH + "generated/torch.nn.parameter.Parameter.html",
    "torch.optim.Optimizer": PYTORCH + "optim.html#torch.optim.Optimizer",  # its methods have pages
    "range": PYTHON + "stdtypes.html#range",  # a type, not among the built-in functions
    # The legacy type constructors have no page of their own: the data types table of tensors.html lists them.
    **{f"torch.{name}Tensor": PYTORCH + "tensors.html#data-types"
       for name in ("Float", "Double", "Long", "Int", "Byte")},
    "torch.cuda.FloatTensor": PYTORCH + "tensors.html#data-types",
}

# (prefix, page): objects under the prefix are anchors on one page.
SHARED_PAGES = [
    ("torch.nn.init.", "nn.init.html"),
    ("torch.utils.data.", "data.html"),
    ("torch.amp.", "amp.html"),
    ("torch.autocast", "amp.html"),
    ("torch.serialization.", "notes/serialization.html"),  # add_safe_globals & co. are documented there
    ("torch.distributed.", "distributed.html"),
    ("torch.multiprocessing.", "multiprocessing.html"),
    ("torch.utils.checkpoint.", "checkpoint.html"),
    ("torch.backends.", "backends.html"),
]

# Classes whose methods are anchors on the class page.
METHODS_ON_CLASS_PAGE = ["torch.nn.Module", "torch.nn.SyncBatchNorm", "torch.nn.Embedding", "torch.nn.EmbeddingBag",
                         "torch.nn.MultiheadAttention", "torch.nn.TransformerEncoderLayer", "torch.nn.TransformerEncoder",
                         "torch.nn.Transformer", "torch.Generator"]


def official_url(fullname: str) -> str | None:
    """URL of the official documentation for a dotted name, or None if unknown."""
    if fullname in EXACT:
        return EXACT[fullname]
    for prefix, page in SHARED_PAGES:
        if fullname.startswith(prefix):
            return f"{PYTORCH}{page}#{fullname}"
    for cls in METHODS_ON_CLASS_PAGE:
        if fullname.startswith(cls + "."):
            return f"{PYTORCH}generated/{cls}.html#{fullname}"
    root = fullname.split(".")[0]
    if fullname.startswith("torchvision.models."):
        # A weights enum is documented on its model builder's page: ResNet18_Weights on resnet18.
        name = fullname.rsplit(".", 1)[1]
        builder = name.removesuffix("_Weights").lower() if name.endswith("_Weights") else name
        page = f"{TORCHVISION}models/generated/torchvision.models.{builder}.html"
        return page + (f"#{fullname}" if builder != name else "")
    if root == "torchvision":
        return f"{TORCHVISION}generated/{fullname}.html"
    if root == "torch":
        return f"{PYTORCH}generated/{fullname}.html"
    if root in ("numpy", "np"):
        return f"{NUMPY}numpy.{fullname.split('.', 1)[1]}.html"
    if "." not in fullname:
        return f"{PYTHON}functions.html#{fullname}"  # a builtin
    return f"{PYTHON}{root}.html#{fullname}"


def add_official_link(app: Sphinx, domain: str, objtype: str, content: addnodes.desc_content) -> None:
    if domain != "py":
        return
    desc = content.parent
    for signature in desc.findall(addnodes.desc_signature):
        fullname = ".".join(filter(None, [signature.get("module"), signature.get("fullname")]))
        url = official_url(fullname)
        if url is None:
            logger.warning("no official documentation URL known for %s; add a rule to api_links.py",
                           fullname, location=signature)
            continue
        signature["official_url"] = url
        link = nodes.reference("", app.config.api_links_label, refuri=url, internal=False)
        signature += nodes.inline("", "", link, classes=["api-official-link"])


def setup(app: Sphinx) -> dict:
    app.add_config_value("api_links_label", "Official documentation", "env", types=frozenset({str}))
    app.connect("object-description-transform", add_official_link)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
